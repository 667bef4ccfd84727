import { optional, p, required, section, ul, type ReadyMadeConsentTemplate } from './build';

/**
 * Informed consent for psychological assessment and treatment of an adult (or of a patient of 16 or
 * more, who consents for themselves: Ley 41/2002, art. 9.4). Ley 41/2002 (autonomía del paciente),
 * the Código Deontológico de la Psicología and the usual practice of Spanish health psychologists.
 */
export const psychologicalTreatment: ReadyMadeConsentTemplate = {
  key: 'tratamiento-psicologico',
  description:
    'Consentimiento informado para la evaluación y el tratamiento psicológico de una persona adulta (o de 16 años o más): en qué consiste, confidencialidad y sus límites, historia clínica, honorarios y derecho a revocarlo.',
  content: {
    name: 'Consentimiento informado para tratamiento psicológico',
    documentTitle: 'Consentimiento informado para la evaluación y el tratamiento psicológico',
    data: { patient: ['fullName', 'email', 'phone', 'idNumber'], guardian: [], secondGuardian: [] },
    signatures: { patient: true, guardian: false, secondGuardian: false, therapist: true },
    sections: [
      section('Partes', [
        p(
          'De una parte, <strong>{{terapeuta.nombre}}</strong>, psicólogo/a con número de colegiado/a <strong>{{terapeuta.colegiado}}</strong>, que ejerce en <strong>{{espacio.nombre}}</strong> (en adelante, «el/la profesional»).',
        ),
        p(
          'De otra, <strong>{{paciente.nombre}}</strong> (en adelante, «el/la paciente»), que recibe este documento antes de iniciar la intervención para poder leerlo con calma, preguntar lo que necesite y decidir libremente.',
        ),
      ]),
      section('En qué consiste la intervención', [
        p(
          'La intervención psicológica comienza con una fase de <strong>evaluación</strong> (entrevistas y, si son útiles, cuestionarios o pruebas) para comprender el motivo de consulta. Con esa información, el/la profesional te explicará su valoración y te propondrá unos <strong>objetivos</strong> y un <strong>plan de trabajo</strong>, que acordaremos juntos y revisaremos a lo largo del proceso.',
        ),
        p(
          'Las técnicas empleadas serán las que cuentan con respaldo científico para tu situación. La terapia requiere tu participación activa: asistir a las sesiones, contar con sinceridad lo que te ocurre y, a veces, realizar tareas entre sesiones.',
        ),
        p(
          'La duración total depende de cada caso y de los objetivos. Salvo que acordemos otra cosa, las sesiones duran unos 50 minutos y su frecuencia se fija de común acuerdo según la fase del tratamiento.',
        ),
      ]),
      section('Beneficios, molestias y alternativas', [
        p(
          'El objetivo es aliviar el malestar que te trae a consulta y darte herramientas para afrontarlo. Ningún profesional puede <strong>garantizar resultados</strong>: la evolución depende de muchos factores.',
        ),
        p(
          'Hablar de experiencias dolorosas puede producir, en algunos momentos, un aumento temporal del malestar. Es una parte esperable del proceso; si ocurre, coméntalo en sesión para ajustar el ritmo.',
        ),
        p(
          'Existen alternativas, como la atención en el sistema público de salud, otros profesionales u otros enfoques terapéuticos, o el tratamiento farmacológico, que solo puede prescribir un médico. Si el/la profesional considera que otra atención es más adecuada para ti, te lo dirá y, si lo deseas, te orientará para derivarte.',
        ),
      ]),
      section('Confidencialidad y secreto profesional', [
        p(
          'Todo lo que cuentes en consulta está protegido por el <strong>secreto profesional</strong> que establece el Código Deontológico de la Psicología, y por la normativa de protección de datos. El/la profesional no compartirá información sobre ti sin tu autorización, salvo en los casos en que la ley lo obliga o lo permite:',
        ),
        ul(
          'cuando exista un riesgo grave e inminente para tu vida o integridad, o para la de otras personas;',
          'cuando lo requiera una autoridad judicial;',
          'cuando una ley obligue a comunicarlo, por ejemplo, ante indicios de violencia contra una persona menor de edad.',
        ),
        p('Incluso en esos casos, se comunicará solo la información imprescindible y, siempre que sea posible, te lo diremos antes.'),
      ]),
      section(
        'Supervisión clínica',
        [
          p(
            'Para mejorar la calidad de la atención, los profesionales consultan a veces sus casos con otros psicólogos/as (supervisión). Se hace <strong>sin datos que te identifiquen</strong> y quien supervisa está igualmente obligado/a al secreto profesional. Solo se hará si lo autorizas marcando la casilla.',
          ),
        ],
        optional('Autorizo que mi caso se comente, sin datos que me identifiquen, en supervisión clínica con otro/a psicólogo/a.'),
      ),
      section('Historia clínica', [
        p(
          'El/la profesional está obligado/a a elaborar y custodiar tu <strong>historia clínica</strong> con la información relevante de la evaluación y del tratamiento (Ley 41/2002, de 14 de noviembre, básica reguladora de la autonomía del paciente). Se conservará, como mínimo, <strong>cinco años desde el alta</strong> de cada proceso asistencial, o el plazo superior que fije la normativa de tu comunidad autónoma.',
        ),
        p(
          'Tienes derecho a acceder a tu historia clínica y a obtener copia de ella, con los límites que fija la ley para proteger a terceras personas y las anotaciones subjetivas del profesional. El tratamiento de tus datos se explica en el documento de información sobre protección de datos.',
        ),
      ]),
      section('Citas, honorarios y cancelaciones', [
        p(
          'El precio de las sesiones y la forma de pago se te informan antes de empezar y figuran en las facturas. Si necesitas anular o cambiar una cita, avísanos con al menos <strong>24 horas de antelación</strong>; en caso contrario, la sesión podrá cobrarse, salvo causa de fuerza mayor.',
        ),
      ]),
      section(
        'Comunicaciones',
        [
          p(
            'Podemos enviarte recordatorios de las citas y otras comunicaciones relacionadas con tu atención por email o por mensaje al teléfono que nos has dado. No enviaremos por estas vías información clínica detallada.',
          ),
        ],
        optional('Acepto recibir recordatorios de citas y comunicaciones sobre mi atención por email o mensaje.'),
      ),
      section('Tus derechos durante el tratamiento', [
        ul(
          'Recibir información clara sobre tu evaluación, los objetivos y la evolución, y hacer todas las preguntas que necesites.',
          'Interrumpir o finalizar la intervención en cualquier momento. Te recomendamos comentarlo en sesión para cerrar el proceso de la mejor forma.',
          'Revocar este consentimiento por escrito en cualquier momento, sin tener que justificarlo (art. 8.5 de la Ley 41/2002).',
          'Pedir una segunda opinión o la derivación a otro profesional.',
        ),
      ]),
      section(
        'Declaración',
        [
          p(
            'Declaro que he leído este documento, que el/la profesional me ha explicado la naturaleza, los objetivos, los beneficios, las posibles molestias y las alternativas de la intervención, y que he podido hacer las preguntas que he considerado oportunas.',
          ),
          p('Fecha: {{fecha}}'),
        ],
        required(
          'He leído y comprendido esta información y doy mi consentimiento para iniciar la evaluación y el tratamiento psicológico.',
        ),
      ),
    ],
  },
};
