import type { FastifyInstance } from 'fastify';
import type { UsersService } from '../users/users.service';
import { PatientAccountsService, type PatientAccountsDeps } from './patient-accounts.service';
import { PatientConnectService } from './patient-connect.service';
import { patientAccountsRoutes } from './patient-accounts.routes';
import { patientConnectRoutes } from './patient-connect.routes';

/** The patient's own account (issue 15): the realm `patients`, connecting files, and their routes. */
export function wirePatientAccounts(d: PatientAccountsDeps & { users: UsersService; perIpPerMinute: number }) {
  const accounts = new PatientAccountsService(d);
  const connect = new PatientConnectService({ ...d, accounts });
  const register = async (app: FastifyInstance) => {
    await app.register(patientConnectRoutes, { connect, perIpPerMinute: d.perIpPerMinute });
    await app.register(patientAccountsRoutes, { accounts, connect, perIpPerMinute: d.perIpPerMinute });
  };
  return { accounts, connect, register };
}
