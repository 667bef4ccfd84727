import type { ErrorCatalogue } from './catalogue';

/** Workspaces, their members and invitations, and their roles. */
export const workspaceErrors = {
  // workspaces (spec §8)
  workspace_already_exists: [409, 'Ya tienes un espacio de trabajo con ese nombre.'],
  workspace_not_found: [404, 'Espacio de trabajo no encontrado.'],
  workspace_limit_reached: [409, 'Has alcanzado el número máximo de espacios de trabajo.'],
  roles_manager_not_user: [409, 'Los roles de este espacio los gestiona Diván y no se pueden editar.'],
  roles_manager_cannot_be_updated: [409, 'La gestión propia de roles ya está desactivada y no se puede volver a activar.'],
  workspace_not_owner: [403, 'Solo la persona propietaria del espacio puede hacer esto.'],
  seat_not_found: [404, 'Miembro no encontrado.'],
  seat_needs_role: [400, 'Cada miembro necesita al menos un rol.'],
  seat_limit_reached: [409, 'Tu plan no permite más miembros en este espacio.'],
  invitation_not_found: [404, 'Invitación no encontrada o cancelada.'],
  invitation_already_sent: [409, 'Ya hay una invitación pendiente para ese email.'],
  invitation_already_accepted: [409, 'Esta invitación ya se ha aceptado.'],
  invitation_email_mismatch: [403, 'Esta invitación es para otro email. Inicia sesión con el email invitado.'],
  member_already_exists: [409, 'Esa persona ya es miembro del espacio.'],
  owner_must_be_admin: [409, 'La persona propietaria debe conservar el rol de administrador.'],
  owner_cannot_be_removed: [409, 'No se puede quitar a la persona propietaria del espacio.'],
  duplicated_roles: [400, 'Hay roles repetidos.'],
  // roles (spec §8)
  access_denied: [403, 'No tienes permiso para hacer esto.'],
  permission_exists: [409, 'Ese permiso ya está en el rol.'],
  permission_missing: [400, 'El rol necesita al menos un permiso.'],
  invalid_permission: [400, 'Permiso inválido.'],
  invalid_action_combination: [400, 'Esa combinación de acción y sección no es válida.'],
  duplicate_permissions: [400, 'Hay permisos repetidos.'],
  role_exists: [409, 'Ya existe un rol con ese nombre.'],
  role_not_found: [404, 'Rol no encontrado.'],
  role_has_seats: [409, 'Este rol está asignado a miembros o invitaciones y no se puede eliminar.'],
  role_limit_exceeded: [409, 'Has alcanzado el número máximo de roles.'],
  cannot_update_admin: [409, 'El rol de administrador no se puede modificar.'],
} as const satisfies ErrorCatalogue;
