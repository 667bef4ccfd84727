import type { ComponentProps } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { AddressField } from '@/lib/address-form';

const AUTOFILL: Record<AddressField, string> = {
  line1: 'address-line1',
  line2: 'address-line2',
  city: 'address-level2',
  zipCode: 'postal-code',
  country: 'country-name',
};

type Props = {
  /** Each line's input: react-hook-form's register(…), with anything else the form adds (readOnly). */
  input: (name: AddressField) => ComponentProps<'input'>;
  error: (name: AddressField) => string | undefined;
  /** The street lines take both columns of the form's two-column grid. */
  wide?: boolean;
  /** The browser fills the lines from the user's own address; off for someone else's (a patient's). */
  autofill?: boolean;
  line2Label?: string;
  line2Placeholder?: string;
  countryPlaceholder?: string;
  /** «Ciudad» before «Código postal». */
  cityFirst?: boolean;
};

/** «Dirección», its second line, «Código postal», «Ciudad» and «País»: the address of a billing party. */
export function AddressFields({
  input,
  error,
  wide,
  autofill = false,
  line2Label = 'Dirección (línea 2)',
  line2Placeholder,
  countryPlaceholder,
  cityFirst,
}: Props) {
  const complete = (name: AddressField) => (autofill ? AUTOFILL[name] : 'off');
  const span = wide ? 'sm:col-span-2' : undefined;
  const zip = (
    <Field key="zipCode" label="Código postal" error={error('zipCode')}>
      <Input inputMode="numeric" autoComplete={complete('zipCode')} {...input('zipCode')} />
    </Field>
  );
  const city = (
    <Field key="city" label="Ciudad" error={error('city')}>
      <Input autoComplete={complete('city')} {...input('city')} />
    </Field>
  );
  return (
    <>
      <Field label="Dirección" error={error('line1')} className={span}>
        <Input autoComplete={complete('line1')} {...input('line1')} />
      </Field>
      <Field label={line2Label} error={error('line2')} className={span}>
        <Input autoComplete={complete('line2')} placeholder={line2Placeholder} {...input('line2')} />
      </Field>
      {cityFirst ? [city, zip] : [zip, city]}
      <Field label="País" error={error('country')}>
        <Input autoComplete={complete('country')} placeholder={countryPlaceholder} {...input('country')} />
      </Field>
    </>
  );
}
