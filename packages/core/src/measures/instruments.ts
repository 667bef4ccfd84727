import { jacobsonTruax, likert, meanTimesTen, sumScale, type Measure, type MeasureKey } from './measure';

/**
 * The six measures of issue 32, in their Spanish (Spain) versions.
 *
 * ⚠ TEXTS TO CHECK: every item text, instruction and option label below was written from the published
 * Spanish versions named in each `translation.source`, not pasted from the licensor's file. Before
 * release each must be compared word for word with the licensor's verbatim text (phqscreeners.com for
 * PHQ-9 and GAD-7; the WHO-5 Spanish file; Bados et al. 2005 for DASS-21; the CORE System Trust's
 * Spanish files for CORE-OM and CORE-10, whose licence (CC BY-NC-ND 4.0) forbids any change) — until
 * then `translation.verify` is true. Scoring, bands, cut-offs and thresholds do not depend on the wording.
 */

const TWO_WEEKS = ['Nunca', 'Varios días', 'Más de la mitad de los días', 'Casi todos los días'].map((label, value) => ({ value, label }));
const PHQ_LICENCE =
  'Desarrollado por los Dres. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke y colaboradores, con una subvención educativa de Pfizer Inc. No se requiere permiso para reproducir, traducir, presentar o distribuir.';

const phq9 = likert({
  key: 'phq9',
  name: 'Cuestionario sobre la salud del paciente (PHQ-9)',
  shortName: 'PHQ-9',
  instructions: 'Durante las últimas 2 semanas, ¿con qué frecuencia ha sentido molestias por cualquiera de los siguientes problemas?',
  items: [
    'Poco interés o placer en hacer cosas',
    'Se ha sentido decaído/a, deprimido/a o sin esperanzas',
    'Ha tenido dificultad para quedarse o permanecer dormido/a, o ha dormido demasiado',
    'Se ha sentido cansado/a o con poca energía',
    'Sin apetito o ha comido en exceso',
    'Se ha sentido mal con usted mismo/a, o que es un fracaso o que ha quedado mal con usted mismo/a o con su familia',
    'Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico o ver la televisión',
    '¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? O lo contrario: muy inquieto/a o agitado/a, moviéndose mucho más de lo normal',
    'Pensamientos de que estaría mejor muerto/a o de lastimarse de alguna manera',
  ],
  options: TWO_WEEKS,
  riskItems: [9],
  scales: [
    sumScale({
      key: 'total',
      label: 'Total',
      items: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      max: 27,
      higherIsWorse: true,
      bands: [
        { from: 0, label: 'Mínima', level: 0 },
        { from: 5, label: 'Leve', level: 1 },
        { from: 10, label: 'Moderada', level: 2 },
        { from: 15, label: 'Moderadamente grave', level: 3 },
        { from: 20, label: 'Grave', level: 4 },
      ],
      cutoff: 10,
      reliableChange: 6,
      source: 'Kroenke, Spitzer y Williams (2001); cambio fiable ≥ 6 puntos (McMillan, Gilbody y Richards, 2010)',
    }),
  ],
  copyright: PHQ_LICENCE,
  licence: 'Uso libre sin restricciones de copyright ni coste (Pfizer, 2010).',
  translation: { source: 'Versión española (España) de Pfizer, phqscreeners.com; validación: Diez-Quevedo et al. (2001)', verify: true },
});

const gad7 = likert({
  key: 'gad7',
  name: 'Escala de ansiedad generalizada (GAD-7)',
  shortName: 'GAD-7',
  instructions: 'Durante las últimas 2 semanas, ¿con qué frecuencia ha sentido molestias por los siguientes problemas?',
  items: [
    'Se ha sentido nervioso/a, ansioso/a o con los nervios de punta',
    'No ha sido capaz de parar o controlar su preocupación',
    'Se ha preocupado demasiado por diferentes cosas',
    'Ha tenido dificultad para relajarse',
    'Se ha sentido tan inquieto/a que no ha podido quedarse quieto/a',
    'Se ha molestado o irritado fácilmente',
    'Ha tenido miedo de que algo terrible fuera a pasar',
  ],
  options: TWO_WEEKS,
  scales: [
    sumScale({
      key: 'total',
      label: 'Total',
      items: [1, 2, 3, 4, 5, 6, 7],
      max: 21,
      higherIsWorse: true,
      bands: [
        { from: 0, label: 'Mínima', level: 0 },
        { from: 5, label: 'Leve', level: 1 },
        { from: 10, label: 'Moderada', level: 2 },
        { from: 15, label: 'Grave', level: 4 },
      ],
      cutoff: 10,
      reliableChange: 4,
      source: 'Spitzer et al. (2006); García-Campayo et al. (2010); cambio fiable ≥ 4 puntos (IAPT)',
    }),
  ],
  copyright: PHQ_LICENCE,
  licence: 'Uso libre sin restricciones de copyright ni coste (Pfizer, 2010).',
  translation: { source: 'Versión española (España) de Pfizer, phqscreeners.com; validación: García-Campayo et al. (2010)', verify: true },
});

const who5 = likert({
  key: 'who5',
  name: 'Índice de bienestar de la OMS (WHO-5)',
  shortName: 'WHO-5',
  instructions:
    'Por favor, indique para cada una de las cinco afirmaciones la opción que más se acerque a cómo se ha sentido durante las últimas dos semanas.',
  items: [
    'Me he sentido alegre y de buen humor',
    'Me he sentido tranquilo/a y relajado/a',
    'Me he sentido activo/a y enérgico/a',
    'Me he despertado fresco/a y descansado/a',
    'Mi vida cotidiana ha estado llena de cosas que me interesan',
  ],
  options: [
    { value: 5, label: 'Todo el tiempo' },
    { value: 4, label: 'La mayor parte del tiempo' },
    { value: 3, label: 'Más de la mitad del tiempo' },
    { value: 2, label: 'Menos de la mitad del tiempo' },
    { value: 1, label: 'De vez en cuando' },
    { value: 0, label: 'Nunca' },
  ],
  scales: [
    // The raw 0–25 times 4: the percentage scale on which the cut-off and the 10-point change are published.
    sumScale({
      key: 'total',
      label: 'Bienestar (0–100)',
      items: [1, 2, 3, 4, 5],
      multiplier: 4,
      max: 100,
      higherIsWorse: false,
      bands: [
        { from: 0, label: 'Bienestar muy bajo', level: 2 },
        { from: 29, label: 'Bienestar bajo', level: 1 },
        { from: 52, label: 'Bienestar adecuado', level: 0 },
      ],
      cutoff: 52,
      reliableChange: 10,
      source: 'Topp et al. (2015): < 52 bienestar bajo, ≤ 28 probable depresión; cambio de 10 puntos relevante',
    }),
  ],
  copyright: '© Psychiatric Research Unit, WHO Collaborating Centre in Mental Health, Frederiksborg General Hospital.',
  licence: 'Uso libre (OMS).',
  translation: { source: 'Versión española del WHO-5 (Psychiatric Research Unit)', verify: true },
});

/** DASS-21: Henry & Crawford (2005), UK non-clinical sample, on the 21-item sums; ×2 to DASS-42 units. */
const DASS_NORMS = { depression: { sd: 3.87, r: 0.88 }, anxiety: { sd: 2.95, r: 0.82 }, stress: { sd: 4.2, r: 0.9 } };
const dassThreshold = (k: keyof typeof DASS_NORMS) => jacobsonTruax(DASS_NORMS[k].sd * 2, DASS_NORMS[k].r, 2);
const dassSource = (k: keyof typeof DASS_NORMS) =>
  `Lovibond y Lovibond (1995), puntuación ×2; cambio fiable de Jacobson–Truax con DT ${DASS_NORMS[k].sd} y α ${DASS_NORMS[k].r} (Henry y Crawford, 2005)`;

const dass21 = likert({
  key: 'dass21',
  name: 'Escalas de depresión, ansiedad y estrés (DASS-21)',
  shortName: 'DASS-21',
  instructions:
    'Lea cada frase e indique en qué medida le ha ocurrido durante la semana pasada. No hay respuestas buenas ni malas. No emplee demasiado tiempo en cada frase.',
  items: [
    'Me costó mucho relajarme',
    'Me di cuenta de que tenía la boca seca',
    'No podía sentir ningún sentimiento positivo',
    'Se me hizo difícil respirar',
    'Se me hizo difícil tomar la iniciativa para hacer cosas',
    'Reaccioné exageradamente en ciertas situaciones',
    'Sentí que mis manos temblaban',
    'Sentí que tenía muchos nervios',
    'Estaba preocupado/a por situaciones en las cuales podía tener pánico o en las que podría hacer el ridículo',
    'Sentí que no tenía nada por lo que vivir',
    'Noté que me agitaba',
    'Se me hizo difícil relajarme',
    'Me sentí triste y deprimido/a',
    'No toleré nada que no me permitiera continuar con lo que estaba haciendo',
    'Sentí que estaba al borde del pánico',
    'No me pude entusiasmar por nada',
    'Sentí que valía muy poco como persona',
    'Sentí que estaba muy irritable',
    'Sentí los latidos de mi corazón a pesar de no haber hecho ningún esfuerzo físico',
    'Tuve miedo sin razón',
    'Sentí que la vida no tenía ningún sentido',
  ],
  options: [
    'No me ha ocurrido',
    'Me ha ocurrido un poco, o durante parte del tiempo',
    'Me ha ocurrido bastante, o durante una buena parte del tiempo',
    'Me ha ocurrido mucho, o la mayor parte del tiempo',
  ].map((label, value) => ({ value, label })),
  scales: [
    sumScale({
      key: 'depression',
      label: 'Depresión',
      items: [3, 5, 10, 13, 16, 17, 21],
      multiplier: 2,
      max: 42,
      higherIsWorse: true,
      bands: [
        { from: 0, label: 'Normal', level: 0 },
        { from: 10, label: 'Leve', level: 1 },
        { from: 14, label: 'Moderada', level: 2 },
        { from: 21, label: 'Grave', level: 3 },
        { from: 28, label: 'Extremadamente grave', level: 4 },
      ],
      cutoff: 10,
      reliableChange: dassThreshold('depression'),
      source: dassSource('depression'),
    }),
    sumScale({
      key: 'anxiety',
      label: 'Ansiedad',
      items: [2, 4, 7, 9, 15, 19, 20],
      multiplier: 2,
      max: 42,
      higherIsWorse: true,
      bands: [
        { from: 0, label: 'Normal', level: 0 },
        { from: 8, label: 'Leve', level: 1 },
        { from: 10, label: 'Moderada', level: 2 },
        { from: 15, label: 'Grave', level: 3 },
        { from: 20, label: 'Extremadamente grave', level: 4 },
      ],
      cutoff: 8,
      reliableChange: dassThreshold('anxiety'),
      source: dassSource('anxiety'),
    }),
    sumScale({
      key: 'stress',
      label: 'Estrés',
      items: [1, 6, 8, 11, 12, 14, 18],
      multiplier: 2,
      max: 42,
      higherIsWorse: true,
      bands: [
        { from: 0, label: 'Normal', level: 0 },
        { from: 15, label: 'Leve', level: 1 },
        { from: 19, label: 'Moderado', level: 2 },
        { from: 26, label: 'Grave', level: 3 },
        { from: 34, label: 'Extremadamente grave', level: 4 },
      ],
      cutoff: 15,
      reliableChange: dassThreshold('stress'),
      source: dassSource('stress'),
    }),
  ],
  copyright: 'DASS: Lovibond, S.H. y Lovibond, P.F. (1995). Dominio público (University of New South Wales).',
  licence: 'Dominio público.',
  translation: { source: 'Bados, Solanas y Andrés (2005), Psicothema 17(4), 679–683', verify: true },
});

/** CORE: the Trust's licence (CC BY-NC-ND 4.0) asks for this line wherever the text is shown. */
export const CORE_COPYRIGHT = '© CORE System Trust: https://www.coresystemtrust.org.uk/copyright.pdf';
const CORE_LICENCE =
  'CC BY-NC-ND 4.0: texto sin cambios, con la línea de copyright visible; incluido en todos los planes, nunca vendido por separado.';
const CORE_OPTIONS = ['Nada', 'Solo ocasionalmente', 'A veces', 'A menudo', 'Casi siempre o siempre'].map((label, value) => ({
  value,
  label,
}));
/** CORE-OM and CORE-10 bands (Barkham et al.), on the clinical score (mean × 10, 0–40). */
const CORE_BANDS = [
  { from: 0, label: 'Sano', level: 0 },
  { from: 6, label: 'Bajo', level: 1 },
  { from: 10, label: 'Leve', level: 2 },
  { from: 15, label: 'Moderado', level: 3 },
  { from: 20, label: 'Moderado-grave', level: 4 },
  { from: 25, label: 'Grave', level: 5 },
];

const coreOmItems = [
  'Me he sentido terriblemente solo/a y aislado/a',
  'Me he sentido tenso/a, ansioso/a o nervioso/a',
  'He sentido que tenía a alguien en quien apoyarme cuando lo he necesitado',
  'Me he sentido bien conmigo mismo/a',
  'Me he sentido totalmente sin energía y sin entusiasmo',
  'He sido físicamente violento/a con otras personas',
  'Me he sentido capaz de afrontar las cosas cuando han ido mal',
  'Me han preocupado dolores u otros problemas físicos',
  'He pensado en hacerme daño',
  'Hablar con la gente me ha resultado demasiado',
  'La tensión y la ansiedad me han impedido hacer cosas importantes',
  'Me he sentido satisfecho/a con las cosas que he hecho',
  'Me han perturbado pensamientos y sentimientos no deseados',
  'He tenido ganas de llorar',
  'He sentido pánico o terror',
  'He hecho planes para acabar con mi vida',
  'Me he sentido desbordado/a por mis problemas',
  'He tenido dificultades para dormirme o para permanecer dormido/a',
  'He sentido cariño o afecto por alguien',
  'Me ha sido imposible dejar de lado mis problemas',
  'He sido capaz de hacer la mayoría de las cosas que tenía que hacer',
  'He amenazado o intimidado a otra persona',
  'Me he sentido desesperado/a o sin esperanza',
  'He pensado que sería mejor estar muerto/a',
  'Me he sentido criticado/a por otras personas',
  'He pensado que no tengo amigos',
  'Me he sentido infeliz',
  'Me han angustiado imágenes o recuerdos no deseados',
  'He estado irritable cuando estaba con otras personas',
  'He pensado que yo tengo la culpa de mis problemas y dificultades',
  'Me he sentido optimista respecto a mi futuro',
  'He conseguido las cosas que quería',
  'Me he sentido humillado/a o avergonzado/a por otras personas',
  'Me he hecho daño físicamente o he puesto en peligro mi salud',
];
const ALL_34 = Array.from({ length: 34 }, (_, i) => i + 1);

const coreom = likert({
  key: 'coreom',
  name: 'CORE-OM (Clinical Outcomes in Routine Evaluation – Outcome Measure)',
  shortName: 'CORE-OM',
  instructions:
    'Este cuestionario tiene 34 frases sobre cómo se ha sentido durante los últimos siete días. Lea cada frase y piense con qué frecuencia se ha sentido así la semana pasada.',
  items: coreOmItems,
  options: CORE_OPTIONS,
  reversed: [3, 4, 7, 12, 19, 21, 31, 32],
  riskItems: [9, 16, 24],
  scales: [
    meanTimesTen({
      key: 'total',
      label: 'Puntuación clínica',
      items: ALL_34,
      higherIsWorse: true,
      bands: CORE_BANDS,
      cutoff: 10,
      reliableChange: 5,
      source: 'Connell et al. (2007): punto de corte 10; cambio fiable ≥ 5 en la puntuación clínica; Feixas et al. (2012)',
    }),
    meanTimesTen({ key: 'wellbeing', label: 'Bienestar subjetivo', items: [4, 14, 17, 31], higherIsWorse: true, bands: [] }),
    meanTimesTen({
      key: 'problems',
      label: 'Problemas / síntomas',
      items: [2, 5, 8, 11, 13, 15, 18, 20, 23, 27, 28, 30],
      higherIsWorse: true,
      bands: [],
    }),
    meanTimesTen({
      key: 'functioning',
      label: 'Funcionamiento',
      items: [1, 3, 7, 10, 12, 19, 21, 25, 26, 29, 32, 33],
      higherIsWorse: true,
      bands: [],
    }),
    meanTimesTen({ key: 'risk', label: 'Riesgo', items: [6, 9, 16, 22, 24, 34], higherIsWorse: true, bands: [] }),
  ],
  copyright: CORE_COPYRIGHT,
  licence: CORE_LICENCE,
  translation: { source: 'Versión española de Feixas et al. (2012), archivos de CORE System Trust', verify: true },
});

/** CORE-10: items 2, 3, 7, 10, 15, 16, 18, 23, 27 and 28 of CORE-OM; 2 and 3 (support, coping) reversed. */
const core10 = likert({
  key: 'core10',
  name: 'CORE-10',
  shortName: 'CORE-10',
  instructions:
    'Este cuestionario tiene 10 frases sobre cómo se ha sentido durante los últimos siete días. Lea cada frase y piense con qué frecuencia se ha sentido así la semana pasada.',
  items: [2, 3, 7, 10, 15, 16, 18, 23, 27, 28].map((n) => coreOmItems[n - 1]!),
  options: CORE_OPTIONS,
  reversed: [2, 3],
  riskItems: [6],
  scales: [
    meanTimesTen({
      key: 'total',
      label: 'Puntuación clínica',
      items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      higherIsWorse: true,
      bands: CORE_BANDS.map((b) => (b.from === 10 ? { ...b, from: 11 } : b)),
      cutoff: 11,
      reliableChange: 6,
      source: 'Barkham et al. (2013): punto de corte 11; cambio fiable ≥ 6 en la puntuación clínica',
    }),
  ],
  copyright: CORE_COPYRIGHT,
  licence: CORE_LICENCE,
  translation: { source: 'Versión española de Feixas et al. (2012), archivos de CORE System Trust', verify: true },
});

export const MEASURES: Readonly<Record<MeasureKey, Measure>> = { phq9, gad7, who5, dass21, core10, coreom };
export const measureOf = (key: MeasureKey): Measure => MEASURES[key];
