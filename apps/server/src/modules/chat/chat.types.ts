/** Who acts on a conversation: a member of the workspace, or the patient from their own account (issue 15). */
export type ChatActor = { kind: 'member'; userId: string } | { kind: 'patient'; patientAccountId: string };

/**
 * What the chat needs of the patients' accounts (modules/patient-accounts): a port the chat module
 * declares (`chatPatientLink`) and the patients' accounts module, built before it, provides. The chat
 * does not read their tables. Without it (NO_PATIENT_LINK), no file is connected.
 */
export type PatientLink = {
  /** The workspace of `patientFileId` when it is connected to the account; null otherwise. */
  fileOf(patientAccountId: string, patientFileId: string): Promise<{ workspaceId: string } | null>;
  /** The accounts connected to a file (recipients of its events on the patient side). */
  accountsOf(patientFileId: string): Promise<string[]>;
  /** The files connected to an account (its counters when its socket connects). */
  filesOf(patientAccountId: string): Promise<string[]>;
};

export const NO_PATIENT_LINK: PatientLink = { fileOf: async () => null, accountsOf: async () => [], filesOf: async () => [] };
