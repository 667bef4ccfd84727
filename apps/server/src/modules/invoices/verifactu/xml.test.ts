import { describe, expect, it } from 'vitest';
import { ANA, SOFTWARE, chainer, session, twoIssuerChain } from './verifactu.testkit';
import type { RegistrationRecord, VerifactuRecord } from './types';
import { buildRegFactuXml, recordFingerprint, SUMINISTRO_INFORMACION_NS, SUMINISTRO_LR_NS } from './xml';
import { parseRegFactuXml } from './xml-parse';

const doc = (records: VerifactuRecord[]) => buildRegFactuXml({ issuer: ANA, software: SOFTWARE, records });
const first = () => chainer()(session(ANA, 'A-1', '2025-03-03', 6000, '2025-03-03T10:00:00+01:00')) as RegistrationRecord;
/** The element names of the XML, in order, without prefixes. */
const tags = (xml: string) => [...xml.matchAll(/<sum1?:(\w+)>/g)].map((m) => m[1]);

describe('buildRegFactuXml', () => {
  it('declares the AEAT namespaces as sum and sum1 and writes the header', () => {
    const xml = doc([first()]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sum:RegFactuSistemaFacturacion /);
    expect(xml).toContain(`xmlns:sum="${SUMINISTRO_LR_NS}"`);
    expect(xml).toContain(`xmlns:sum1="${SUMINISTRO_INFORMACION_NS}"`);
    expect(xml).toContain(
      '<sum:Cabecera>\n    <sum1:ObligadoEmision>\n      <sum1:NombreRazon>Ana Ruiz &amp; Gómez &lt;Psicología&gt;</sum1:NombreRazon>\n      <sum1:NIF>89890001K</sum1:NIF>',
    );
  });

  it('writes a RegistroAlta in the order of the schema', () => {
    const record = first();
    const xml = doc([record]);
    expect(tags(xml)).toEqual([
      'Cabecera',
      'ObligadoEmision',
      'NombreRazon',
      'NIF',
      'RegistroFactura',
      'RegistroAlta',
      'IDVersion',
      'IDFactura',
      'IDEmisorFactura',
      'NumSerieFactura',
      'FechaExpedicionFactura',
      'NombreRazonEmisor',
      'TipoFactura',
      'DescripcionOperacion',
      'Destinatarios',
      'IDDestinatario',
      'NombreRazon',
      'NIF',
      'Desglose',
      'DetalleDesglose',
      'Impuesto',
      'ClaveRegimen',
      'OperacionExenta',
      'BaseImponibleOimporteNoSujeto',
      'CuotaTotal',
      'ImporteTotal',
      'Encadenamiento',
      'PrimerRegistro',
      'SistemaInformatico',
      'NombreRazon',
      'NIF',
      'NombreSistemaInformatico',
      'IdSistemaInformatico',
      'Version',
      'NumeroInstalacion',
      'TipoUsoPosibleSoloVerifactu',
      'TipoUsoPosibleMultiOT',
      'IndicadorMultiplesOT',
      'FechaHoraHusoGenRegistro',
      'TipoHuella',
      'Huella',
    ]);
    for (const fragment of [
      '<sum1:FechaExpedicionFactura>03-03-2025<',
      '<sum1:OperacionExenta>E1<',
      '<sum1:BaseImponibleOimporteNoSujeto>60.00<',
      '<sum1:CuotaTotal>0.00<',
      '<sum1:NombreSistemaInformatico>Diván<',
      '<sum1:IdSistemaInformatico>01<',
      '<sum1:Version>1.0<',
      `<sum1:Huella>${record.fingerprint}<`,
    ])
      expect(xml).toContain(fragment);
  });

  it('writes rectifications, taxed lines, foreign recipients and cancellations', () => {
    const xml = doc(twoIssuerChain());
    expect(xml).toContain('<sum1:TipoRectificativa>S</sum1:TipoRectificativa>');
    expect(xml).toMatch(/<sum1:FacturasRectificadas>\s*<sum1:IDFacturaRectificada>\s*<sum1:IDEmisorFactura>12345678Z</);
    expect(xml).toMatch(
      /<sum1:ImporteRectificacion>\s*<sum1:BaseRectificada>199.50<\/sum1:BaseRectificada>\s*<sum1:CuotaRectificada>41.90</,
    );
    expect(xml).toMatch(
      /<sum1:CalificacionOperacion>S1<\/sum1:CalificacionOperacion>\s*<sum1:TipoImpositivo>21.00<\/sum1:TipoImpositivo>\s*<sum1:BaseImponibleOimporteNoSujeto>199.50<\/sum1:BaseImponibleOimporteNoSujeto>\s*<sum1:CuotaRepercutida>41.90</,
    );
    expect(xml).toMatch(/<sum1:IDOtro>\s*<sum1:CodigoPais>DE<\/sum1:CodigoPais>\s*<sum1:IDType>02<\/sum1:IDType>\s*<sum1:ID>DE123456789</);
    expect(xml).toContain('<sum1:ImporteTotal>-50.00</sum1:ImporteTotal>');
    expect(xml).toMatch(
      /<sum1:RegistroAnulacion>\s*<sum1:IDVersion>1.0<\/sum1:IDVersion>\s*<sum1:IDFactura>\s*<sum1:IDEmisorFacturaAnulada>89890001K</,
    );
  });

  it('escapes user text so that it reads back unchanged, line breaks included', () => {
    const xml = doc([{ ...first(), description: 'Sesión <1> & "2"\n\tfin' }]);
    expect(xml).toContain('<sum1:DescripcionOperacion>Sesión &lt;1&gt; &amp; &quot;2&quot;&#10;&#9;fin</sum1:DescripcionOperacion>');
    const numbered = chainer()(session(ANA, 'A&B<1>', '2025-03-03', 6000, '2025-03-03T10:00:00+01:00'));
    expect(parseRegFactuXml(doc([numbered]))[0]).toMatchObject({ number: 'A&B<1>', fingerprint: recordFingerprint(numbered) });
  });

  it('refuses a record whose stored fingerprint no longer matches its fields', () => {
    expect(() => doc([{ ...first(), totalCents: 6001 }])).toThrow(/stored fingerprint does not match/);
    const { fingerprint: _, ...unstored } = { ...first(), totalCents: 6001 };
    expect(parseRegFactuXml(doc([unstored]))[0]).toMatchObject({ kind: 'registration', totalCents: 6001 });
  });

  it('refuses what the schema or the AEAT would refuse', () => {
    const base: RegistrationRecord = { ...first(), fingerprint: undefined };
    const cases: [string, Partial<RegistrationRecord>][] = [
      ['rectifying type without the rectified invoices', { invoiceType: 'R1' }],
      ['substitution without ImporteRectificacion', { invoiceType: 'R1', rectification: { type: 'S', invoices: [base.invoice] } }],
      ['rectification on an ordinary invoice', { rectification: { type: 'I', invoices: [base.invoice] } }],
      ['no tax line', { lines: [] }],
      [
        'more than 12 tax lines',
        { lines: Array.from({ length: 13 }, () => ({ kind: 'exempt' as const, exemption: 'E1' as const, baseCents: 1 })) },
      ],
      ['a NIF that is not 9 characters', { invoice: { ...base.invoice, issuerTaxId: '1234' } }],
      ['an empty invoice number', { invoice: { ...base.invoice, number: '  ' } }],
      ['a control character', { description: 'a\u0007b' }],
      ['a fractional amount', { vatTotalCents: 0.5 }],
    ];
    for (const [what, change] of cases) expect(() => doc([{ ...base, ...change }]), what).toThrow();
    expect(() => doc([])).toThrow(/1–1000 records/);
  });
});

describe('parseRegFactuXml', () => {
  it('refuses documents it cannot read', () => {
    expect(() => parseRegFactuXml('<a></a>')).toThrow(/Not a RegFactuSistemaFacturacion/);
    expect(() => parseRegFactuXml('<x:RegFactuSistemaFacturacion><x:RegistroFactura>')).toThrow(/not closed/);
    expect(() => parseRegFactuXml('<!DOCTYPE x><RegFactuSistemaFacturacion/>')).toThrow(/Unsupported/);
    const xml = doc([first()]);
    expect(() => parseRegFactuXml(xml.replace(/<sum1:CuotaTotal>[^<]*/, '<sum1:CuotaTotal>doce'))).toThrow(/ImporteSgn12.2Type/);
    expect(() => parseRegFactuXml(xml.replace('<sum1:PrimerRegistro>S</sum1:PrimerRegistro>', ''))).toThrow(/PrimerRegistro/);
  });
});
