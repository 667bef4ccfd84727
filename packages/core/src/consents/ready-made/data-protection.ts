import { optional, p, required, section, ul, type ReadyMadeConsentTemplate } from './build';

/**
 * The information of art. 13 of the GDPR (RGPD) for a psychology practice in Spain, with the LOPDGDD
 * (Ley Orgánica 3/2018) and the retention of clinical records of Ley 41/2002. Health data is a special
 * category (art. 9 RGPD): its basis is health care by a professional bound by secrecy (art. 9.2.h and
 * 9.3), not consent; consent is asked only for what is optional (reminders by message, news).
 */
export const dataProtection: ReadyMadeConsentTemplate = {
  key: 'proteccion-datos',
  description:
    'Información sobre protección de datos (RGPD y LOPDGDD) para pacientes: responsable, datos de salud, finalidades, base jurídica, conservación de la historia clínica, destinatarios, derechos y reclamación ante la AEPD; con casillas para las comunicaciones optativas.',
  content: {
    name: 'Protección de datos (RGPD y LOPDGDD)',
    documentTitle: 'Información sobre protección de datos personales',
    data: { patient: ['fullName', 'email', 'idNumber'], guardian: [], secondGuardian: [] },
    signatures: { patient: true, guardian: false, secondGuardian: false, therapist: false },
    sections: [
      section('Responsable del tratamiento', [
        p(
          'El responsable del tratamiento de tus datos es <strong>{{espacio.nombre}}</strong>, y el/la profesional que te atiende es <strong>{{terapeuta.nombre}}</strong>, psicólogo/a colegiado/a n.º {{terapeuta.colegiado}}. Puedes contactar con el responsable en la dirección postal y el email de la consulta, que figuran en sus facturas y comunicaciones.',
        ),
        p(
          'Si el centro está obligado a contar con un delegado de protección de datos (art. 34 de la Ley Orgánica 3/2018), puedes dirigirte a él a través de esos mismos datos de contacto.',
        ),
      ]),
      section('Qué datos tratamos', [
        ul(
          '<strong>Datos identificativos y de contacto</strong>: nombre, DNI/NIE, fecha de nacimiento, dirección, teléfono y email.',
          '<strong>Datos de salud</strong>: el motivo de consulta, la evaluación, la evolución y el resto de la información de tu historia clínica. Son una <strong>categoría especial de datos</strong> (art. 9 del Reglamento General de Protección de Datos, RGPD) y se protegen con medidas de seguridad reforzadas, como el cifrado.',
          '<strong>Datos económicos</strong>: los necesarios para facturar y cobrar las sesiones.',
          'Si eres menor de edad, también los datos de tus padres, madres o representantes legales.',
        ),
      ]),
      section('Para qué los tratamos y con qué base jurídica', [
        ul(
          '<strong>Prestarte la atención psicológica</strong> y elaborar y custodiar tu historia clínica. Base jurídica: la prestación del servicio que solicitas (art. 6.1.b RGPD), el cumplimiento de obligaciones legales (art. 6.1.c RGPD; Ley 41/2002) y, para los datos de salud, la asistencia sanitaria por un profesional sujeto al deber de secreto (art. 9.2.h y 9.3 RGPD).',
          '<strong>Gestionar tus citas</strong> y enviarte los recordatorios por email. Base jurídica: la prestación del servicio (art. 6.1.b RGPD).',
          '<strong>Facturar y cumplir las obligaciones contables y fiscales.</strong> Base jurídica: obligación legal (art. 6.1.c RGPD).',
          '<strong>Enviarte recordatorios por mensaje al móvil e información sobre actividades de la consulta</strong>, solo si lo aceptas en las casillas de este documento. Base jurídica: tu consentimiento (art. 6.1.a RGPD), que puedes retirar cuando quieras.',
        ),
        p('No tomamos decisiones automatizadas ni elaboramos perfiles con tus datos.'),
      ]),
      section('Cuánto tiempo los conservamos', [
        ul(
          'La <strong>historia clínica</strong>, como mínimo <strong>cinco años desde el alta</strong> de cada proceso asistencial (art. 17 de la Ley 41/2002), o el plazo superior que establezca la normativa de tu comunidad autónoma.',
          'Los <strong>datos de facturación</strong>, durante los plazos que exige la normativa fiscal y mercantil (hasta seis años).',
          'Los datos tratados con tu consentimiento, hasta que lo retires.',
        ),
        p(
          'Pasados esos plazos, los datos se bloquean durante el tiempo en que puedan exigirse responsabilidades (art. 32 de la Ley Orgánica 3/2018) y después se suprimen de forma segura.',
        ),
      ]),
      section('A quién se comunican', [
        p(
          'No cedemos tus datos a terceros, salvo obligación legal: por ejemplo, a la Agencia Tributaria, a jueces y tribunales o a otras autoridades que los requieran conforme a la ley. Solo con tu autorización expresa se compartirá información con otros profesionales, como tu médico.',
        ),
        p(
          'Algunos proveedores tratan datos por cuenta de la consulta para prestarle servicios (la plataforma de gestión de la consulta, el correo electrónico o el alojamiento). Lo hacen con un contrato que les obliga a tratarlos solo siguiendo nuestras instrucciones y con medidas de seguridad adecuadas (art. 28 RGPD). No se prevén transferencias internacionales de datos; si algún proveedor las hiciera, sería solo con las garantías que exige el RGPD.',
        ),
      ]),
      section('Tus derechos', [
        p('Puedes ejercer en cualquier momento tus derechos de:'),
        ul(
          '<strong>acceso</strong> a tus datos y a tu historia clínica;',
          '<strong>rectificación</strong> de los datos inexactos;',
          '<strong>supresión</strong>, cuando ya no sean necesarios (la historia clínica debe conservarse durante el plazo legal, aunque pidas su supresión);',
          '<strong>oposición</strong> y <strong>limitación</strong> del tratamiento;',
          '<strong>portabilidad</strong> de los datos que nos has facilitado;',
          '<strong>retirar tu consentimiento</strong> en cualquier momento, sin que afecte a lo tratado antes de retirarlo.',
        ),
        p(
          'Para ejercerlos, escríbenos por email o por correo postal a la consulta indicando qué derecho ejerces. Si no podemos identificarte con seguridad, te pediremos que lo acredites. Te responderemos en el plazo de <strong>un mes</strong>, ampliable en dos meses más en casos complejos (art. 12 RGPD).',
        ),
      ]),
      section('Reclamación ante la autoridad de control', [
        p(
          'Si consideras que no hemos tratado tus datos correctamente, puedes presentar una reclamación ante la <strong>Agencia Española de Protección de Datos</strong> (AEPD), C/ Jorge Juan, 6, 28001 Madrid, o en su sede electrónica <a href="https://sedeagpd.gob.es">sedeagpd.gob.es</a>. Puedes encontrar más información en <a href="https://www.aepd.es">www.aepd.es</a>.',
        ),
      ]),
      section(
        'Información recibida',
        [
          p(
            'Los datos que te pedimos son necesarios para atenderte: sin ellos no podríamos prestarte el servicio ni cumplir nuestras obligaciones legales.',
          ),
        ],
        required('He leído y entendido la información sobre el tratamiento de mis datos personales y de salud.'),
      ),
      section(
        'Recordatorios por mensaje',
        [
          p(
            'Optativo. Si lo aceptas, te enviaremos los recordatorios de las citas por SMS o mensajería instantánea al teléfono que nos has dado.',
          ),
        ],
        optional('Acepto recibir recordatorios de mis citas por mensaje al móvil.'),
      ),
      section(
        'Información sobre actividades',
        [
          p(
            'Optativo. Si lo aceptas, te enviaremos ocasionalmente por email información sobre talleres, grupos y novedades de la consulta. Podrás darte de baja en cada envío.',
          ),
        ],
        optional('Acepto recibir por email información sobre actividades y novedades de la consulta.'),
      ),
      section('', [p('Fecha: {{fecha}}')]),
    ],
  },
};
