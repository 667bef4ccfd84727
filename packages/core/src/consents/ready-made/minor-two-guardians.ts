import { optional, p, required, section, ul, type ReadyMadeConsentTemplate } from './build';

/**
 * Consent for the psychological care of a minor under 16, given by both holders of parental authority
 * (art. 156 Código Civil), with the exception the same article makes since Real Decreto-ley 9/2018 and
 * Ley Orgánica 8/2021 (one parent suffices when the other is prosecuted or convicted for violence
 * against the children or the other parent, or the mother is cared for by a gender-violence service
 * with its report; the other parent is informed beforehand), the minor's voice (Ley Orgánica 1/1996,
 * art. 9; Ley 41/2002, art. 9.3.c) and the patient of 16 or more, who consents themselves (art. 9.4).
 */
export const minorTwoGuardians: ReadyMadeConsentTemplate = {
  key: 'menor-dos-tutores',
  description:
    'Consentimiento de ambos progenitores o tutores para la atención psicológica de un menor de 16 años (art. 156 del Código Civil), con la excepción de un solo progenitor en casos de violencia y la información sobre la opinión del menor y la confidencialidad.',
  content: {
    name: 'Tratamiento de un menor (dos progenitores o tutores)',
    documentTitle: 'Consentimiento informado para la atención psicológica de un menor de edad',
    data: {
      patient: ['fullName'],
      guardian: ['fullName', 'email', 'phone', 'address', 'idNumber'],
      secondGuardian: ['fullName', 'email', 'phone', 'address', 'idNumber'],
    },
    signatures: { patient: false, guardian: true, secondGuardian: true, therapist: true },
    sections: [
      section('Partes', [
        p(
          'Quienes firman, como progenitores o representantes legales de <strong>{{paciente.nombre}}</strong> (en adelante, «el/la menor»), reciben esta información de <strong>{{terapeuta.nombre}}</strong>, psicólogo/a colegiado/a n.º {{terapeuta.colegiado}}, que ejerce en <strong>{{espacio.nombre}}</strong>.',
        ),
      ]),
      section('Quién debe dar el consentimiento', [
        p(
          'La patria potestad se ejerce, por regla general, <strong>conjuntamente por ambos progenitores</strong> (art. 156 del Código Civil). Por eso pedimos el consentimiento de los dos para iniciar la atención psicológica del/de la menor, también cuando estén separados o divorciados y aunque la custodia la tenga uno de ellos. Cada progenitor firma con su propio enlace.',
        ),
        p(
          'Si los progenitores no se ponen de acuerdo, cualquiera de ellos puede acudir al juzgado para que decida (art. 156 del Código Civil). Mientras tanto, no se iniciará la intervención, salvo en los casos en que la ley permite el consentimiento de uno solo.',
        ),
      ]),
      section('Cuándo basta el consentimiento de un solo progenitor', [
        p(
          'El artículo 156 del Código Civil, en su redacción vigente (Ley Orgánica 8/2021, de 4 de junio), establece que basta el consentimiento de un progenitor para la atención y asistencia psicológica de los hijos e hijas menores cuando:',
        ),
        ul(
          'se haya dictado una <strong>sentencia condenatoria</strong>, mientras no se extinga la responsabilidad penal, o se haya iniciado un <strong>procedimiento penal</strong> contra el otro progenitor por atentar contra la vida, la integridad física, la libertad, la integridad moral o la libertad e indemnidad sexual de los hijos o hijas comunes, o por atentar contra el progenitor que consiente; o',
          'la madre esté recibiendo asistencia en un <strong>servicio especializado de violencia de género</strong>, aunque no haya denuncia previa, siempre que ese servicio emita un informe que acredite la situación.',
        ),
        p(
          'En estos casos, el otro progenitor <strong>será informado previamente</strong> de la atención psicológica. Quien firme solo/a deberá aportar la resolución judicial, la denuncia admitida o el informe del servicio especializado, cuya referencia quedará registrada con este consentimiento.',
        ),
      ]),
      section('La opinión del/de la menor', [
        p(
          'El/la menor será informado/a de la intervención de forma adaptada a su edad y madurez, y su opinión será escuchada y tenida en cuenta según su madurez, y en todo caso a partir de los <strong>12 años</strong> (art. 9 de la Ley Orgánica 1/1996, de Protección Jurídica del Menor, y art. 9.3.c de la Ley 41/2002).',
        ),
        p(
          'Si el/la paciente tiene <strong>16 años o más</strong>, es él o ella quien da el consentimiento: no cabe el consentimiento por representación (art. 9.4 de la Ley 41/2002), y firmará el consentimiento informado ordinario. En la atención psicológica a la que se refiere la excepción anterior, el art. 156 del Código Civil exige en todo caso su consentimiento expreso.',
        ),
      ]),
      section('En qué consiste la intervención', [
        p(
          'La intervención comienza con una evaluación (entrevistas con el/la menor y con los progenitores y, si son útiles, cuestionarios o pruebas). Después, el/la profesional os explicará su valoración y propondrá unos objetivos y un plan de trabajo, que se revisarán durante el proceso. Las técnicas serán las que cuentan con respaldo científico para la edad y la situación del/de la menor.',
        ),
        p(
          'Ningún profesional puede garantizar resultados. Abordar situaciones difíciles puede producir un malestar pasajero; comentadlo con el/la profesional si ocurre. Podéis interrumpir la intervención o revocar este consentimiento por escrito en cualquier momento.',
        ),
      ]),
      section('Confidencialidad y información a los progenitores', [
        p(
          'Para que la terapia funcione, el/la menor necesita confiar en que lo que cuenta en sesión no se traslada literalmente. Ambos progenitores tienen derecho a recibir información sobre la evolución, los objetivos y las recomendaciones, pero el/la profesional no compartirá los detalles de lo que el/la menor le confíe, salvo que sea necesario para protegerle.',
        ),
        p(
          'El secreto profesional tiene límites: si existe un riesgo grave para el/la menor o para otras personas, o indicios de violencia contra él o ella, el/la profesional actuará para protegerle y lo comunicará a quien corresponda, como le obliga la ley (Ley Orgánica 8/2021).',
        ),
      ]),
      section('Historia clínica y datos', [
        p(
          'El/la profesional elaborará y custodiará la historia clínica del/de la menor, que se conservará como mínimo cinco años desde el alta de cada proceso asistencial (art. 17 de la Ley 41/2002). Los datos de los progenitores y del/de la menor se tratan como se explica en la información sobre protección de datos.',
        ),
      ]),
      section(
        'Coordinación con el centro escolar',
        [
          p(
            'Optativo. A veces es útil coordinarse con el tutor/a o el equipo de orientación del centro escolar. Solo se hará con vuestra autorización y compartiendo lo imprescindible.',
          ),
        ],
        optional('Autorizo que el/la profesional se coordine con el centro escolar del/de la menor cuando sea útil para la intervención.'),
      ),
      section(
        'Declaración',
        [
          p(
            'Declaro que soy progenitor/a o representante legal del/de la menor, que he leído esta información, que he podido preguntar mis dudas y que consiento su atención psicológica.',
          ),
          p('Fecha: {{fecha}}'),
        ],
        required('Como progenitor/a o representante legal, consiento la evaluación y el tratamiento psicológico del/de la menor.'),
      ),
    ],
  },
};
