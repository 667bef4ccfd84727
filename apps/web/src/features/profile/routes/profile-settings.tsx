import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { Alert } from '@/components/ui/alert';
import { useMe } from '../api/profile-api';
import { ImageUpload } from '../components/image-upload';
import { ProfileForm } from '../components/profile-form';
import { usePageTitle } from '@/lib/use-page-title';

const initials = (first: string, last: string | null) => `${first[0] ?? ''}${last?.[0] ?? ''}`.toUpperCase();

export function ProfileSettingsRoute() {
  usePageTitle('Perfil');
  const me = useMe();
  if (me.isError && !me.data) return <Alert variant="error">{me.error.message}</Alert>;
  if (!me.data) return <PageSpinner />;
  const profile = me.data;

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Imagen</CardTitle>
          <CardDescription>Tu foto aparece junto a tu nombre en Diván; el logo queda guardado con tu perfil profesional.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 sm:grid-cols-2">
          <ImageUpload
            kind="picture"
            url={profile.pictureUrl}
            title="Foto de perfil"
            description="PNG, JPG o WebP, hasta 2 MB."
            fallback={initials(profile.firstName, profile.lastName)}
          />
          <ImageUpload
            kind="logo"
            url={profile.logoUrl}
            title="Logo"
            description="Imagen cuadrada, PNG, JPG o WebP, hasta 2 MB."
            fallback="Logo"
          />
        </CardContent>
      </Card>
      <ProfileForm profile={profile} />
    </div>
  );
}

export { ProfileSettingsRoute as Component };
