import { optional, p, required, section, ul, type ReadyMadeConsentTemplate } from './build';

/**
 * Consent to sessions by video call: what the patient needs, the privacy of the place on both sides,
 * no recording without written consent, what happens when the connection fails, and what online
 * therapy is not (an emergency service: 112 and the 024 line).
 */
export const onlineSessions: ReadyMadeConsentTemplate = {
  key: 'sesiones-online',
  description:
    'Consentimiento para la atención psicológica por videollamada: requisitos técnicos, privacidad del lugar, prohibición de grabar sin consentimiento, qué hacer si falla la conexión y qué hacer en una emergencia.',
  content: {
    name: 'Sesiones online (videollamada)',
    documentTitle: 'Consentimiento para la atención psicológica online',
    data: { patient: ['fullName', 'email', 'phone'], guardian: [], secondGuardian: [] },
    signatures: { patient: true, guardian: false, secondGuardian: false, therapist: false },
    sections: [
      section('En qué consisten las sesiones online', [
        p(
          'Las sesiones con <strong>{{terapeuta.nombre}}</strong> (n.º de colegiado/a {{terapeuta.colegiado}}), de <strong>{{espacio.nombre}}</strong>, podrán realizarse por <strong>videollamada</strong>, a través del enlace personal que recibirás por email antes de cada sesión. La videollamada va cifrada y no requiere instalar ningún programa.',
        ),
        p(
          'La atención online tiene la misma profesionalidad, confidencialidad y secreto profesional que la presencial. Aun así, no es adecuada para todas las situaciones: si el/la profesional considera que en algún momento es mejor verte en consulta o derivarte a otro recurso, te lo dirá.',
        ),
      ]),
      section('Qué necesitas', [
        ul(
          'Un ordenador, tableta o móvil con cámara y micrófono, y una conexión a internet estable.',
          'Auriculares, recomendados para que nadie más oiga la sesión.',
          'Conectarte unos minutos antes para comprobar que todo funciona.',
        ),
        p('El enlace de cada sesión es personal: no lo compartas con nadie.'),
      ]),
      section('Privacidad del lugar', [
        p('Para que la sesión sea tan confidencial como en consulta:'),
        ul(
          'Conéctate desde un <strong>espacio privado y tranquilo</strong>, donde nadie pueda oírte ni interrumpirte. Evita lugares públicos, el lugar de trabajo o el coche (nunca conduciendo).',
          'Si hay otra persona en la habitación o se incorpora durante la sesión, dilo al empezar o en ese momento. Nadie más participará en la sesión sin que lo hayamos acordado antes.',
          'El/la profesional atenderá la sesión desde un espacio privado, sin otras personas presentes.',
        ),
      ]),
      section('Grabación', [
        p(
          'Está <strong>prohibido grabar</strong> la sesión (imagen, audio o capturas de pantalla) por cualquiera de las dos partes sin el <strong>consentimiento previo y por escrito</strong> de la otra. El/la profesional no grabará ninguna sesión salvo que lo autorices expresamente en un documento aparte.',
        ),
      ]),
      section(
        'Si falla la conexión',
        [
          ul(
            'Si la videollamada se corta, vuelve a entrar con el mismo enlace: el/la profesional también intentará reconectarse durante unos minutos.',
            'Si no es posible, el/la profesional te llamará al teléfono que nos has facilitado para terminar la sesión por teléfono, si lo has aceptado abajo, o para acordar otra cita.',
            'El tiempo perdido por un fallo técnico de la consulta no se cobrará: se recuperará en otra sesión o se descontará.',
          ),
        ],
        optional('Acepto que, si falla la videollamada, la sesión pueda continuar por teléfono.'),
      ),
      section('Emergencias', [
        p(
          'La atención online <strong>no es un servicio de urgencias</strong>. Al empezar cada sesión, el/la profesional podrá preguntarte dónde estás, por si fuera necesario avisar a los servicios de emergencia.',
        ),
        p(
          'Si en algún momento tu vida o la de otra persona corre peligro, llama al <strong>112</strong>. Si tienes pensamientos de suicidio, puedes llamar también a la <strong>línea 024</strong> de atención a la conducta suicida, gratuita, confidencial y disponible las 24 horas.',
        ),
      ]),
      section('Datos y seguridad', [
        p(
          'La plataforma de videollamada no guarda el contenido de las sesiones. Tus datos se tratan como se explica en la información sobre protección de datos que te hemos entregado.',
        ),
      ]),
      section(
        'Declaración',
        [
          p(
            'He leído estas condiciones, he podido preguntar mis dudas y me comprometo a cumplirlas. Puedo volver a la atención presencial o revocar este consentimiento cuando quiera.',
          ),
          p('Fecha: {{fecha}}'),
        ],
        required('Acepto recibir atención psicológica por videollamada en las condiciones descritas.'),
      ),
    ],
  },
};
