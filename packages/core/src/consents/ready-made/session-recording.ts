import { optional, p, required, section, ul, type ReadyMadeConsentTemplate } from './build';

/**
 * Consent to record sessions: a specific, informed and revocable consent (arts. 6.1.a, 7 and 9.2.a
 * RGPD) for a stated purpose, with granular boxes (video, supervision), who may hear it, where it is
 * kept, when it is deleted, and that saying no changes nothing in the care received.
 */
export const sessionRecording: ReadyMadeConsentTemplate = {
  key: 'grabacion-sesiones',
  description:
    'Consentimiento específico para grabar sesiones en audio o vídeo: finalidad, quién accede, dónde se guardan, cuándo se borran y cómo revocarlo; con casillas separadas para el vídeo y para la supervisión.',
  content: {
    name: 'Grabación de sesiones',
    documentTitle: 'Consentimiento para la grabación de sesiones',
    data: { patient: ['fullName', 'idNumber'], guardian: [], secondGuardian: [] },
    signatures: { patient: true, guardian: false, secondGuardian: false, therapist: false },
    sections: [
      section('Qué te pedimos', [
        p(
          '<strong>{{terapeuta.nombre}}</strong>, psicólogo/a colegiado/a n.º {{terapeuta.colegiado}}, de <strong>{{espacio.nombre}}</strong>, te pide permiso para <strong>grabar tus sesiones</strong>. Es totalmente voluntario: si no lo autorizas, tu atención seguirá exactamente igual.',
        ),
      ]),
      section('Para qué se graban', [
        p('Las grabaciones se usarán <strong>solo</strong> para:'),
        ul(
          'que el/la profesional pueda revisar las sesiones y mejorar la intervención contigo;',
          'la supervisión clínica con otro/a psicólogo/a, únicamente si lo autorizas en la casilla correspondiente.',
        ),
        p(
          'Nunca se publicarán ni se usarán para docencia, investigación o cualquier otra finalidad sin un consentimiento nuevo, específico y por escrito.',
        ),
      ]),
      section('Quién puede verlas u oírlas', [
        p(
          'Solo el/la profesional que te atiende y, si lo autorizas, el/la supervisor/a clínico/a, que está igualmente obligado/a al secreto profesional. En la supervisión se evitará cualquier dato que te identifique más allá de tu voz o tu imagen.',
        ),
      ]),
      section('Dónde se guardan', [
        p(
          'Las grabaciones contienen datos de salud. Se guardan <strong>cifradas</strong> en los sistemas de la consulta, con acceso restringido, y no se suben a redes sociales ni a servicios no autorizados por la consulta. No se envían por email ni por mensajería.',
        ),
      ]),
      section('Cuándo se borran', [
        p(
          'Cada grabación se <strong>borra</strong> en cuanto deja de ser necesaria para su finalidad y, como máximo, a los <strong>tres meses</strong> de la sesión, salvo que acordemos por escrito otro plazo. Las grabaciones no forman parte de tu historia clínica: lo relevante de cada sesión se recoge en ella por escrito.',
        ),
      ]),
      section('Puedes cambiar de opinión', [
        ul(
          'Puedes <strong>revocar</strong> este consentimiento en cualquier momento, por escrito o diciéndoselo al/a la profesional, sin dar explicaciones.',
          'También puedes pedir que se pare la grabación en cualquier momento de una sesión, o que no se grabe una sesión concreta.',
          'Si lo revocas, no se harán más grabaciones y se borrarán las que se conserven. La revocación no afecta a lo realizado antes.',
        ),
        p(
          'Puedes ejercer también tus derechos de acceso, supresión y los demás que reconoce la normativa de protección de datos, y reclamar ante la Agencia Española de Protección de Datos (<a href="https://www.aepd.es">www.aepd.es</a>).',
        ),
      ]),
      section(
        'Grabación en audio',
        [p('Marca esta casilla para autorizar la grabación del audio de tus sesiones con las finalidades descritas.')],
        required('Autorizo la grabación en audio de mis sesiones con las finalidades y las condiciones descritas.'),
      ),
      section(
        'Grabación en vídeo',
        [p('Optativo. Además del audio, autorizas que se grabe también la imagen.')],
        optional('Autorizo también la grabación en vídeo de mis sesiones.'),
      ),
      section(
        'Supervisión clínica',
        [
          p(
            'Optativo. Si lo autorizas, fragmentos de las grabaciones podrán revisarse con un/a supervisor/a clínico/a sujeto/a a secreto profesional.',
          ),
        ],
        optional('Autorizo que las grabaciones se revisen en supervisión clínica con otro/a psicólogo/a.'),
      ),
      section('', [p('Fecha: {{fecha}}')]),
    ],
  },
};
