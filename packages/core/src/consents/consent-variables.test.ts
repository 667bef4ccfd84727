import { describe, expect, it } from 'vitest';
import {
  CONSENT_VARIABLE_GAPS,
  CONSENT_VARIABLE_NAMES,
  consentVariableValues,
  fillVariables,
  missingVariables,
  templateTexts,
  unknownVariables,
  unknownVariablesMessage,
  variablesIn,
} from './consent-variables';

const values = consentVariableValues({
  patientName: 'Lucía Ortega',
  therapistName: 'Irene Martín',
  registrationNumber: 'M-12345',
  workspaceName: 'Consulta Martín',
  day: '2026-03-09',
});

describe('consent variables', () => {
  it('knows the five variables of the file', () => {
    expect(CONSENT_VARIABLE_NAMES).toEqual(['paciente.nombre', 'terapeuta.nombre', 'terapeuta.colegiado', 'espacio.nombre', 'fecha']);
  });

  it('fills each known variable, with or without spaces inside the braces, every time it appears', () => {
    const text =
      'Yo, {{paciente.nombre}}, autorizo a {{ terapeuta.nombre }} (n.º {{terapeuta.colegiado}}) de {{espacio.nombre}}. {{paciente.nombre}}, {{fecha}}';
    expect(fillVariables(text, values)).toBe(
      'Yo, Lucía Ortega, autorizo a Irene Martín (n.º M-12345) de Consulta Martín. Lucía Ortega, 09/03/2026',
    );
  });

  it('is pure: the same text and values give the same document, and the inputs are not changed', () => {
    const copy = { ...values };
    expect(fillVariables('{{fecha}}', values)).toBe(fillVariables('{{fecha}}', values));
    expect(values).toEqual(copy);
  });

  it('leaves a missing value empty (or as asked) and unknown variables as written', () => {
    const noNumber = { ...values, 'terapeuta.colegiado': null };
    expect(fillVariables('n.º {{terapeuta.colegiado}}', noNumber)).toBe('n.º ');
    expect(fillVariables('n.º {{terapeuta.colegiado}}', noNumber, { missing: '________' })).toBe('n.º ________');
    expect(fillVariables('{{paciente.apellidos}}', values)).toBe('{{paciente.apellidos}}');
  });

  it('escapes values filled into HTML, so a name stays text', () => {
    const html = fillVariables('<p>{{paciente.nombre}}</p>', { 'paciente.nombre': 'Ana <script>alert(1)</script> & "Co"' }, { html: true });
    expect(html).toBe('<p>Ana &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;</p>');
    // Plain text (a document title) is filled as is.
    expect(fillVariables('{{paciente.nombre}}', { 'paciente.nombre': 'Ana & Co' })).toBe('Ana & Co');
  });

  it('finds unknown variables and says which ones may be used, in Spanish', () => {
    expect(variablesIn('{{fecha}} {{ fecha }} {{paciente.edad}}')).toEqual(['fecha', 'paciente.edad']);
    expect(unknownVariables('Hola {{paciente.nombre}}, {{paciente.edad}} y {{}}')).toEqual(['paciente.edad', '']);
    expect(unknownVariables('Sin variables, solo {llaves} sueltas')).toEqual([]);
    expect(unknownVariablesMessage(['paciente.edad'])).toBe(
      'Variable desconocida: {{paciente.edad}}. Puedes usar: {{paciente.nombre}}, {{terapeuta.nombre}}, {{terapeuta.colegiado}}, {{espacio.nombre}}, {{fecha}}.',
    );
    expect(unknownVariablesMessage(['a', 'b'])).toMatch(/^Variables desconocidas: \{\{a\}\}, \{\{b\}\}\./);
  });
});

describe('variables left blank before sending', () => {
  it('lists the variables the texts use without a value, in order, with the message the sender reads', () => {
    const texts = templateTexts({
      documentTitle: 'Consentimiento de {{paciente.nombre}}',
      sections: [
        {
          title: 'Responsable',
          body: '<p>{{terapeuta.nombre}}, colegiado/a n.º {{ terapeuta.colegiado }}.</p>',
          checkbox: { label: 'Acepto, {{fecha}}' },
        },
      ],
    });
    const without = consentVariableValues({
      patientName: 'Lucía Ortega',
      therapistName: 'Irene Martín',
      registrationNumber: null,
      workspaceName: 'Consulta Martín',
      day: '2026-03-09',
    });
    expect(missingVariables(texts, without)).toEqual(['terapeuta.colegiado']);
    expect(CONSENT_VARIABLE_GAPS['terapeuta.colegiado']).toEqual({ message: 'Falta tu número de colegiado/a', source: 'profile' });
    expect(missingVariables(texts, { ...without, 'terapeuta.colegiado': '  ' })).toEqual(['terapeuta.colegiado']);
    expect(missingVariables(texts, values)).toEqual([]);
    // A variable the template does not use is no gap.
    expect(missingVariables(['Sin variables'], without)).toEqual([]);
  });
});
