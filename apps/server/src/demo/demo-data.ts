import type { EndingReason, Gender, SessionType, TreatmentMotive } from '@divan/core';

/**
 * Fictional people and notes for `npm run demo`. Any resemblance to real persons is chance; emails
 * use the reserved `.test` domain so nothing is ever delivered.
 */
export const DEMO_PASSWORD = 'DemoDivan2026';
export const DEMO_WORKSPACE = 'Clínica Demo';
export const DEMO_THERAPISTS = {
  lead: { email: 'demo@divan.local', firstName: 'Lucía', lastName: 'Herrera Campos' },
  colleague: { email: 'jaime.demo@divan.local', firstName: 'Jaime', lastName: 'Ortega Sanz' },
} as const;

export type DemoPatient = {
  firstName: string;
  lastName: string;
  gender: Gender;
  born: number;
  city: [string, string];
  motive: TreatmentMotive;
  sessionType?: SessionType;
  /** Who treats them: the demo therapist, the colleague or nobody yet. */
  therapist: 'lead' | 'colleague' | null;
  /** Months since treatment started. */
  months: number;
  status?: 'paused' | { ended: EndingReason; monthsAgo: number };
  online?: boolean;
};

const MADRID: [string, string] = ['Madrid', '28013'];
const BCN: [string, string] = ['Barcelona', '08012'];
const VLC: [string, string] = ['Valencia', '46004'];
const SEV: [string, string] = ['Sevilla', '41001'];
const BIO: [string, string] = ['Bilbao', '48001'];
const ZGZ: [string, string] = ['Zaragoza', '50001'];
const MLG: [string, string] = ['Málaga', '29015'];
const VGO: [string, string] = ['Vigo', '36201'];

export const DEMO_PATIENTS: DemoPatient[] = [
  {
    firstName: 'Marta',
    lastName: 'Sánchez Roldán',
    gender: 'female',
    born: 1991,
    city: MADRID,
    motive: 'anxiety',
    therapist: 'lead',
    months: 5,
  },
  {
    firstName: 'Javier',
    lastName: 'Molina Prieto',
    gender: 'male',
    born: 1984,
    city: MADRID,
    motive: 'work_stress',
    therapist: 'lead',
    months: 3,
    online: true,
  },
  {
    firstName: 'Lucía',
    lastName: 'Navarro Gil',
    gender: 'female',
    born: 1999,
    city: VLC,
    motive: 'self_esteem',
    therapist: 'lead',
    months: 7,
  },
  {
    firstName: 'Andrés',
    lastName: 'Castro Vidal',
    gender: 'male',
    born: 1976,
    city: MADRID,
    motive: 'mourning',
    therapist: 'lead',
    months: 4,
  },
  {
    firstName: 'Elena',
    lastName: 'Ruiz Domínguez',
    gender: 'female',
    born: 1988,
    city: BCN,
    motive: 'panic',
    therapist: 'lead',
    months: 2,
    online: true,
  },
  {
    firstName: 'Pablo',
    lastName: 'Romero Iglesias',
    gender: 'male',
    born: 1995,
    city: MADRID,
    motive: 'social_anxiety',
    therapist: 'lead',
    months: 6,
  },
  {
    firstName: 'Carmen',
    lastName: 'Ortiz Lozano',
    gender: 'female',
    born: 1969,
    city: SEV,
    motive: 'depression',
    therapist: 'lead',
    months: 9,
  },
  {
    firstName: 'Sergio',
    lastName: 'Blanco Ferrer',
    gender: 'male',
    born: 1987,
    city: MADRID,
    motive: 'couple',
    sessionType: 'couple',
    therapist: 'lead',
    months: 3,
  },
  {
    firstName: 'Nerea',
    lastName: 'Etxeberria Goñi',
    gender: 'female',
    born: 2001,
    city: BIO,
    motive: 'eating_disorders',
    therapist: 'lead',
    months: 8,
  },
  {
    firstName: 'Raúl',
    lastName: 'Jiménez Cortés',
    gender: 'male',
    born: 1981,
    city: MADRID,
    motive: 'insomnia',
    therapist: 'lead',
    months: 2,
  },
  {
    firstName: 'Inés',
    lastName: 'Herrero Pastor',
    gender: 'female',
    born: 1993,
    city: ZGZ,
    motive: 'emotional_dependence',
    therapist: 'lead',
    months: 5,
    status: 'paused',
  },
  {
    firstName: 'Tomás',
    lastName: 'Garrido Bravo',
    gender: 'male',
    born: 1979,
    city: MADRID,
    motive: 'anxiety',
    therapist: 'lead',
    months: 14,
    status: { ended: 'completed', monthsAgo: 2 },
  },
  {
    firstName: 'Alba',
    lastName: 'Medina Soler',
    gender: 'female',
    born: 1997,
    city: BCN,
    motive: 'personal_growth',
    therapist: 'lead',
    months: 10,
    status: { ended: 'economic', monthsAgo: 3 },
    online: true,
  },
  {
    firstName: 'Daniel',
    lastName: 'Fuentes Marín',
    gender: 'male',
    born: 2006,
    city: MADRID,
    motive: 'adhd',
    therapist: 'lead',
    months: 4,
  },
  {
    firstName: 'Rocío',
    lastName: 'Vargas León',
    gender: 'female',
    born: 1985,
    city: MLG,
    motive: 'mourning',
    therapist: 'lead',
    months: 12,
    status: { ended: 'completed', monthsAgo: 1 },
  },
  {
    firstName: 'Rosa',
    lastName: 'Santos Moreno',
    gender: 'female',
    born: 1974,
    city: MADRID,
    motive: 'family',
    sessionType: 'family',
    therapist: 'colleague',
    months: 3,
  },
  {
    firstName: 'Álvaro',
    lastName: 'Peña Herrera',
    gender: 'male',
    born: 1990,
    city: MADRID,
    motive: 'ocd',
    therapist: 'colleague',
    months: 6,
  },
  {
    firstName: 'Irene',
    lastName: 'Cabello Ramos',
    gender: 'female',
    born: 1992,
    city: VLC,
    motive: 'anxiety',
    therapist: 'colleague',
    months: 2,
    online: true,
  },
  {
    firstName: 'Hugo',
    lastName: 'Delgado Serrano',
    gender: 'male',
    born: 1986,
    city: MADRID,
    motive: 'depression',
    therapist: 'colleague',
    months: 7,
  },
  {
    firstName: 'Claudia',
    lastName: 'Morales Vega',
    gender: 'female',
    born: 1998,
    city: SEV,
    motive: 'trauma',
    therapist: 'colleague',
    months: 9,
  },
  {
    firstName: 'Mario',
    lastName: 'Gallego Rubio',
    gender: 'male',
    born: 1972,
    city: MADRID,
    motive: 'work_stress',
    therapist: 'colleague',
    months: 4,
  },
  {
    firstName: 'Paula',
    lastName: 'Cano Aguilar',
    gender: 'female',
    born: 2000,
    city: VGO,
    motive: 'social_anxiety',
    therapist: 'colleague',
    months: 5,
    online: true,
  },
  {
    firstName: 'Víctor',
    lastName: 'Alonso Ruiz',
    gender: 'male',
    born: 1983,
    city: MADRID,
    motive: 'couple',
    sessionType: 'couple',
    therapist: 'colleague',
    months: 2,
  },
  {
    firstName: 'Sara',
    lastName: 'Prieto Calvo',
    gender: 'female',
    born: 1994,
    city: MADRID,
    motive: 'self_esteem',
    therapist: 'colleague',
    months: 6,
    status: 'paused',
  },
  {
    firstName: 'Adrián',
    lastName: 'Lorenzo Campos',
    gender: 'male',
    born: 1989,
    city: ZGZ,
    motive: 'panic',
    therapist: 'colleague',
    months: 8,
    status: { ended: 'abandoned', monthsAgo: 2 },
  },
  {
    firstName: 'Noelia',
    lastName: 'Ibáñez Crespo',
    gender: 'female',
    born: 1980,
    city: MADRID,
    motive: 'insomnia',
    therapist: 'colleague',
    months: 5,
    status: { ended: 'completed', monthsAgo: 1 },
  },
  {
    firstName: 'Gonzalo',
    lastName: 'Reyes Montero',
    gender: 'male',
    born: 1968,
    city: MADRID,
    motive: 'mourning',
    therapist: 'colleague',
    months: 3,
  },
  {
    firstName: 'Laia',
    lastName: 'Puig Ferrer',
    gender: 'female',
    born: 1996,
    city: BCN,
    motive: 'emotional_dependence',
    therapist: 'colleague',
    months: 4,
    online: true,
  },
  { firstName: 'Rubén', lastName: 'Santana Díaz', gender: 'male', born: 1993, city: MADRID, motive: 'anxiety', therapist: null, months: 0 },
  {
    firstName: 'Cristina',
    lastName: 'Vicente Arias',
    gender: 'female',
    born: 1987,
    city: MADRID,
    motive: 'depression',
    therapist: null,
    months: 0,
  },
  {
    firstName: 'Óscar',
    lastName: 'Benítez Guerrero',
    gender: 'male',
    born: 1978,
    city: MLG,
    motive: 'work_stress',
    therapist: null,
    months: 1,
  },
  {
    firstName: 'Lorena',
    lastName: 'Pascual Nieto',
    gender: 'female',
    born: 2003,
    city: MADRID,
    motive: 'self_esteem',
    therapist: null,
    months: 0,
    online: true,
  },
  { firstName: 'Iker', lastName: 'Arrieta Zubiri', gender: 'male', born: 1991, city: BIO, motive: 'panic', therapist: null, months: 1 },
  {
    firstName: 'Beatriz',
    lastName: 'Carmona Rey',
    gender: 'female',
    born: 1975,
    city: MADRID,
    motive: 'mourning',
    therapist: null,
    months: 6,
    status: 'paused',
  },
  {
    firstName: 'Marcos',
    lastName: 'Sáez Quintana',
    gender: 'male',
    born: 1999,
    city: VLC,
    motive: 'social_anxiety',
    therapist: null,
    months: 11,
    status: { ended: 'personal', monthsAgo: 4 },
  },
  {
    firstName: 'Julia',
    lastName: 'Esteban Mora',
    gender: 'female',
    born: 1990,
    city: MADRID,
    motive: 'insomnia',
    therapist: 'lead',
    months: 1,
  },
  {
    firstName: 'Enrique',
    lastName: 'Vidal Robles',
    gender: 'male',
    born: 1965,
    city: SEV,
    motive: 'depression',
    therapist: 'colleague',
    months: 13,
    status: { ended: 'professional', monthsAgo: 5 },
  },
  {
    firstName: 'Ana',
    lastName: 'Rivas Benito',
    gender: 'female',
    born: 1983,
    city: MADRID,
    motive: 'trauma',
    therapist: 'lead',
    months: 10,
    status: 'paused',
  },
  {
    firstName: 'Diego',
    lastName: 'Montes Heredia',
    gender: 'male',
    born: 1997,
    city: MADRID,
    motive: 'ocd',
    therapist: 'lead',
    months: 3,
    online: true,
  },
  {
    firstName: 'Valeria',
    lastName: 'Soto Mendoza',
    gender: 'female',
    born: 2002,
    city: ZGZ,
    motive: 'anxiety',
    therapist: 'colleague',
    months: 2,
  },
];

type Note = { title: string; body: string };
const p = (...paragraphs: string[]) => paragraphs.map((x) => `<p>${x}</p>`).join('');

const FIRST: Note = {
  title: 'Primera sesión: evaluación inicial',
  body:
    p(
      'Acude {name} a consulta por iniciativa propia. Se recoge el motivo de consulta, la historia del problema y los antecedentes personales y familiares. Se explican el encuadre, la confidencialidad y la frecuencia de las sesiones.',
    ) + '<ul><li>Se entrega consentimiento informado.</li><li>Se acuerda frecuencia semanal durante el primer mes.</li></ul>',
};

/** Follow-up notes by reason for consultation; `{name}` is the patient's first name. */
const BY_MOTIVE: Partial<Record<TreatmentMotive, Note[]>> = {
  anxiety: [
    {
      title: 'Psicoeducación sobre la ansiedad',
      body: p(
        'Trabajamos el modelo cognitivo de la ansiedad y el ciclo de evitación. {name} identifica situaciones de anticipación en el trabajo y antes de dormir.',
        'Tarea: registro de situaciones, pensamientos automáticos y nivel de ansiedad (0-10).',
      ),
    },
    {
      title: 'Reestructuración cognitiva',
      body: p(
        'Revisamos el registro: predominan pensamientos catastrofistas ("no voy a poder", "algo va a salir mal"). Practicamos preguntas socráticas y alternativas más realistas.',
        'Refiere una reducción leve de la ansiedad anticipatoria. Se introduce respiración diafragmática.',
      ),
    },
  ],
  depression: [
    {
      title: 'Activación conductual',
      body: p(
        '{name} describe apatía, aislamiento y pérdida de interés. Elaboramos una lista de actividades gratificantes y una agenda semanal con objetivos pequeños y alcanzables.',
        'Sin ideación autolítica en el momento actual; se revisa plan de seguridad.',
      ),
    },
    {
      title: 'Revisión de la agenda de actividades',
      body: p(
        'Ha cumplido cuatro de las seis actividades previstas. Señala mejoría del estado de ánimo los días con paseo por la mañana.',
        'Trabajamos la autocrítica ante las actividades no realizadas.',
      ),
    },
  ],
  mourning: [
    {
      title: 'Elaboración del duelo',
      body: p(
        '{name} habla del fallecimiento de su padre hace ocho meses. Aparecen culpa y rabia por la rapidez de la enfermedad. Se normalizan las reacciones y se valida la expresión emocional.',
      ),
    },
    {
      title: 'Carta de despedida',
      body: p(
        'Trae escrita la carta propuesta en la sesión anterior; la lee en voz alta con gran carga emocional. Refiere alivio posterior.',
        'Se acuerda retomar progresivamente actividades sociales que había abandonado.',
      ),
    },
  ],
  self_esteem: [
    {
      title: 'Autoconcepto y autocrítica',
      body: p(
        'Exploramos la voz crítica interna y su origen en la adolescencia. {name} reconoce exigencia elevada y comparación constante en redes sociales.',
        'Tarea: registrar tres logros diarios, por pequeños que sean.',
      ),
    },
    {
      title: 'Asertividad',
      body: p(
        'Role-playing de situaciones en las que le cuesta decir que no. Practicamos la técnica del disco rayado y la expresión de desacuerdo sin justificarse en exceso.',
      ),
    },
  ],
  work_stress: [
    {
      title: 'Análisis de estresores laborales',
      body: p(
        '{name} describe una carga de trabajo elevada, reuniones fuera de horario y dificultad para desconectar. Cefaleas tensionales frecuentes.',
        'Trabajamos límites horarios y planificación de pausas.',
      ),
    },
    {
      title: 'Gestión del tiempo y desconexión',
      body: p('Ha conseguido no revisar el correo después de las 20:00 cuatro días de siete. Introducimos relajación muscular progresiva.'),
    },
  ],
  panic: [
    {
      title: 'Ataques de pánico: psicoeducación',
      body: p(
        'Explicamos la respuesta de lucha-huida y la interpretación catastrófica de las sensaciones corporales. {name} describe tres episodios en el último mes, dos en el metro.',
      ),
    },
    {
      title: 'Exposición interoceptiva',
      body: p(
        'Practicamos hiperventilación controlada y giros en silla para provocar sensaciones temidas. Ansiedad máxima 7/10, desciende a 3/10 en cinco minutos.',
        'Se planifica exposición gradual al metro.',
      ),
    },
  ],
  social_anxiety: [
    {
      title: 'Jerarquía de exposición',
      body: p(
        'Construimos una jerarquía de situaciones sociales temidas, desde preguntar una dirección hasta intervenir en una reunión. {name} elige empezar por situaciones de nivel 3.',
      ),
    },
    {
      title: 'Revisión de exposiciones',
      body: p(
        'Ha realizado dos exposiciones. Identificamos conductas de seguridad (evitar el contacto visual, ensayar frases) y acordamos reducirlas.',
      ),
    },
  ],
  couple: [
    {
      title: 'Evaluación de la relación',
      body: p(
        'Primera sesión conjunta. Ambos coinciden en discusiones frecuentes por el reparto de tareas y la falta de tiempo compartido. Se acuerdan normas de comunicación en sesión.',
      ),
    },
    {
      title: 'Comunicación en pareja',
      body: p(
        'Practicamos la escucha activa y la expresión de necesidades en primera persona. Tarea: diez minutos diarios de conversación sin pantallas.',
      ),
    },
  ],
  family: [
    {
      title: 'Sesión familiar',
      body: p(
        'Acuden ambos progenitores y los dos hijos. Tensión en torno a las normas de uso del móvil del hijo mayor. Se trabaja la expresión de cada punto de vista sin interrupciones.',
      ),
    },
    {
      title: 'Acuerdos familiares',
      body: p('Se redactan acuerdos sobre horarios y consecuencias. La familia refiere un clima algo más tranquilo esta semana.'),
    },
  ],
  insomnia: [
    {
      title: 'Higiene del sueño',
      body: p(
        '{name} tarda más de una hora en dormirse casi todas las noches. Revisamos hábitos: pantallas en la cama, cafeína por la tarde, horarios irregulares.',
        'Tarea: diario de sueño durante dos semanas.',
      ),
    },
    {
      title: 'Control de estímulos',
      body: p(
        'Con el diario de sueño, acordamos levantarse si no concilia en veinte minutos y mantener un horario fijo de despertar. Refiere leve mejoría.',
      ),
    },
  ],
  ocd: [
    {
      title: 'Evaluación de obsesiones y compulsiones',
      body: p(
        '{name} describe pensamientos intrusivos de contaminación y lavados de manos de hasta veinte minutos. Se explica el modelo del TOC y el papel de la neutralización.',
      ),
    },
    {
      title: 'Exposición con prevención de respuesta',
      body: p(
        'Primera exposición en consulta: tocar el pomo de la puerta sin lavarse después. Ansiedad 8/10 inicial, 4/10 a los treinta minutos.',
      ),
    },
  ],
  trauma: [
    {
      title: 'Estabilización',
      body: p(
        'Trabajamos recursos de regulación emocional antes de abordar el recuerdo traumático: lugar seguro, respiración y anclaje sensorial. {name} refiere pesadillas dos veces por semana.',
      ),
    },
    {
      title: 'Procesamiento del recuerdo',
      body: p('Se inicia el trabajo con la narrativa del accidente. Tolera bien la sesión; se cierra con ejercicio de anclaje.'),
    },
  ],
  emotional_dependence: [
    {
      title: 'Patrones relacionales',
      body: p(
        'Revisamos las relaciones de pareja anteriores. {name} identifica miedo intenso al abandono y tendencia a anteponer las necesidades del otro.',
      ),
    },
    {
      title: 'Autonomía y red de apoyo',
      body: p('Planificamos actividades propias sin la pareja y el contacto con amistades que había dejado de ver.'),
    },
  ],
  eating_disorders: [
    {
      title: 'Registro de alimentación',
      body: p(
        'Se revisa el registro alimentario y emocional. Aparecen restricciones tras comentarios sobre su cuerpo. Coordinación con nutricionista acordada con consentimiento de {name}.',
      ),
    },
    {
      title: 'Imagen corporal',
      body: p(
        'Trabajamos pensamientos sobre la imagen corporal y la comprobación frente al espejo. Tarea: reducir comprobaciones a dos al día.',
      ),
    },
  ],
  adhd: [
    {
      title: 'Organización y estudio',
      body: p(
        '{name} está en segundo de bachillerato. Dificultades para iniciar tareas y gestionar el tiempo. Introducimos agenda visual y bloques de estudio de 25 minutos.',
      ),
    },
    {
      title: 'Coordinación con la familia',
      body: p('Sesión con la madre para acordar apoyos en casa y refuerzo positivo de los avances.'),
    },
  ],
  personal_growth: [
    {
      title: 'Valores y objetivos',
      body: p(
        'Exploramos valores personales y su coherencia con las decisiones actuales. {name} se plantea un cambio de trayectoria profesional.',
      ),
    },
    { title: 'Plan de acción', body: p('Definimos pasos concretos para los próximos tres meses y posibles obstáculos.') },
  ],
};

const CLOSING: Note = {
  title: 'Cierre del proceso',
  body: p(
    'Revisamos los objetivos iniciales y los avances. Se acuerda finalizar el proceso terapéutico y se ofrece una sesión de seguimiento si lo necesita.',
  ),
};

/** Three to four notes for a patient: evaluation, two follow-ups and, for ended treatments, the closing. */
export function notesFor(d: DemoPatient): Note[] {
  const follow = BY_MOTIVE[d.motive] ?? BY_MOTIVE.anxiety!;
  const notes = [FIRST, ...follow];
  if (typeof d.status === 'object') notes.push(CLOSING);
  return notes.map((n) => ({ title: n.title, body: n.body.replaceAll('{name}', d.firstName) }));
}
