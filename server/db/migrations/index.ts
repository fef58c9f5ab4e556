/**
 * Every migration, in order, by name: forward only, run at start (open.ts). Listed here rather than found
 * on disk, so the bundled server (scripts/build-server.mjs) carries them. A new one gets the next number
 * and goes at the end; server/db/migrations.test.ts then migrates a database of every earlier version to it.
 */
import type { Migration } from 'kysely';
import { peopleGrantsSessions } from './0001-people-grants-sessions';
import { signIn } from './0002-sign-in';
import { activity } from './0003-activity';
import { activityIndexes } from './0004-activity-indexes';
import { imports } from './0005-imports';
import { sessionChanges } from './0006-session-changes';
import { caseWork } from './0007-case-work';
import { roleCapabilityChanges } from './0008-role-capability-changes';
import { approvals } from './0009-approvals';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-people-grants-sessions': peopleGrantsSessions,
  '0002-sign-in': signIn,
  '0003-activity': activity,
  '0004-activity-indexes': activityIndexes,
  '0005-imports': imports,
  '0006-session-changes': sessionChanges,
  '0007-case-work': caseWork,
  '0008-role-capability-changes': roleCapabilityChanges,
  '0009-approvals': approvals,
};
