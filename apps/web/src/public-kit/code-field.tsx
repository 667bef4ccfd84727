import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FieldAlert, invalidField } from './ui';

/** What a typed code keeps: its digits, six at the most. */
export const cleanCode = (typed: string): string => typed.replace(/\D/g, '').slice(0, 6);
// No maxLength on the input: a pasted «Código: 123456» would be cut to «Código» before it is cleaned.

/**
 * The six digits of a mailed code, as the booking pages and the companion ask them: digits only, «El
 * código tiene 6 cifras» when short, a refused code selected to type again. `focusFirst`: the field takes
 * the focus when it appears (the booking pages give it to the step's heading instead).
 */
export function useCodeField(codeError: string | null, { focusFirst = false } = {}) {
  const [code, setCode] = useState('');
  const [short, setShort] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (codeError) input.current?.select();
    else if (focusFirst) input.current?.focus();
  }, [codeError, focusFirst]);
  /** The form's submit: the code when it has six digits, else the field says so. */
  const submitted = (e: FormEvent): string | null => {
    e.preventDefault();
    if (code.length === 6) return code;
    setShort(true);
    input.current?.focus();
    return null;
  };
  const error = short ? 'El código tiene 6 cifras' : codeError;
  const field = (
    <div className="grid gap-1.5">
      <label htmlFor="code" className="text-sm font-medium">
        Código
      </label>
      <input
        ref={input}
        id="code"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="[0-9]*"
        className="block min-h-12 w-44 rounded-md border border-input bg-card px-3 text-center font-mono text-2xl tracking-[0.3em] shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 aria-[invalid=true]:border-destructive"
        value={code}
        onChange={(e) => {
          setCode(cleanCode(e.target.value));
          setShort(false);
        }}
        {...invalidField('code-error', error)}
      />
      <FieldAlert id="code-error" error={error} />
    </div>
  );
  return { field, submitted };
}
