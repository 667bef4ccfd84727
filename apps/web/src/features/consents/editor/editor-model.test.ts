import { describe, expect, it } from 'vitest';
import { bodyOf, emptyModel, fingerprint, modelOf, move, problemsOf } from './editor-model';

const valid = () => {
  const m = emptyModel();
  m.name = 'Consentimiento';
  m.documentTitle = 'Consentimiento informado';
  m.sections[0]!.title = 'Objeto';
  m.sections[0]!.body = '<p>Texto para {{paciente.nombre}}</p>';
  return m;
};

describe('consent template editor model', () => {
  it('a complete template has no problems', () => {
    expect(problemsOf(valid())).toEqual({});
  });

  it('asking no data is refused with the message of spec §5, on the data field', () => {
    const m = valid();
    m.data.patient = [];
    expect(problemsOf(m).data).toBe('Debes pedir al menos un dato del paciente, tutor o segundo tutor');
  });

  it('names the empty name, an unknown variable and a missing therapist signature on their fields', () => {
    const m = valid();
    m.name = '';
    m.sections[0]!.body = '<p>{{paciente.apellidos}}</p>';
    m.signatures.therapist = true;
    const p = problemsOf(m);
    expect(p.name).toBeTruthy();
    expect(p['sections.0.body']).toMatch(/^Variable desconocida: \{\{paciente\.apellidos\}\}/);
    expect(p.therapistSignature).toMatch(/dibuja tu firma/);
  });

  it('a second guardian needs the first one', () => {
    const m = valid();
    m.signatures = { patient: false, guardian: false, secondGuardian: true, therapist: false };
    m.data.secondGuardian = ['fullName'];
    const p = problemsOf(m);
    expect(p['data.guardian']).toMatch(/primer tutor/);
    expect(p['signatures.guardian']).toMatch(/primer tutor/);
  });

  it('sends the checkbox only when it is on, and round-trips a template', () => {
    const m = valid();
    m.sections[0]!.checkboxLabel = 'Acepto';
    expect(bodyOf(m).sections[0]!.checkbox).toBeNull();
    m.sections[0]!.hasCheckbox = true;
    m.sections[0]!.required = true;
    expect(bodyOf(m).sections[0]!.checkbox).toEqual({ label: 'Acepto', required: true });
    const again = modelOf({
      name: m.name,
      documentTitle: m.documentTitle,
      data: m.data,
      signatures: m.signatures,
      therapistSignature: null,
      sections: [{ title: 'Objeto', body: m.sections[0]!.body, checkbox: { label: 'Acepto', required: true } }],
    });
    expect(fingerprint(again)).toBe(fingerprint(m));
  });

  it('moves a section up and down, never past the ends', () => {
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    const same = ['a', 'b'];
    expect(move(same, 0, -1)).toBe(same);
  });
});
