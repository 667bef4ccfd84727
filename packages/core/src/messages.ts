/** The general validation messages of spec §5, in Spanish. Field names are given in Spanish too. */
export const msg = {
  required: (field: string) => `El campo ${field} es obligatorio`,
  invalid: (field: string) => `${field} inválido`,
  passwordsMismatch: () => 'Las contraseñas no coinciden',
  minLength: (length: number) => `Debe tener al menos ${length} caracteres`,
  max: (max: number | string) => `No puede ser mayor de ${max}`,
  maxLength: (max: number) => `No puede tener más de ${max} caracteres`,
  lettersOnly: () => 'Solo se permiten letras',
  notEditable: () => 'Este campo no se puede editar',
  arrayMax: (max: number) => `No puede tener más de ${max} elementos`,
  afterToday: () => 'La fecha debe ser posterior a hoy',
  invalidEmail: () => 'Email inválido',
  invalidEnum: () => 'Opción inválida',
  invalidDate: () => 'Fecha inválida',
  invalidInstant: () => 'Fecha y hora inválidas',
  forbiddenChars: (field: string) => `${field} contiene caracteres no permitidos`,
  passwordRule: () =>
    'La contraseña debe tener al menos 8 caracteres y combinar dos tipos: mayúsculas, minúsculas, números o símbolos',
  passwordEqual: () => 'La nueva contraseña debe ser distinta de la actual',
} as const;
