import type { CodeFailure } from './code-form';
import { isWrongCode, messageOf, needsNewCode, type Failure } from './errors';

/** Where a failed code goes: at the input (wrong), «Enviarme un código nuevo» (can no longer work), or above. */
export function codeFailure(f: Failure): CodeFailure {
  if (isWrongCode(f))
    return { codeError: f.code === 'invalid_code' ? messageOf(f) : 'El código tiene 6 cifras', needsNewCode: null, notice: null };
  if (needsNewCode(f)) return { codeError: null, needsNewCode: messageOf(f), notice: null };
  return { codeError: null, needsNewCode: null, notice: messageOf(f) };
}
