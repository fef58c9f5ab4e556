/**
 * The team's work on a site's cases (`/api/inbox/...`), kept in site-admin's own database because the
 * platform has no status, note or assignee and cannot update a case: each case's status and assignee, its
 * notes (plain text, each edit keeping the earlier text), which cases each person has seen, and the export
 * of a filtered list. Each shape is a zod schema with its type inferred from it: the server parses the bodies
 * it reads with them, the inbox the answers. Only the inbox loads this module (zod is not on the first page,
 * decision 0003); the navigation's counts are in inbox-counts.ts, without zod.
 */
import * as z from 'zod/mini';

export const INBOX_PATHS = {
  /** GET `?cases=<id>,<id>` (at most CASE_WORK_MAX_CASES): the team's work on those cases (WorkAnswer). */
  work: '/api/inbox/:site/:form/work',
  /** PATCH a WorkChange: status, assignee or seen on up to CASE_WORK_MAX_CASES cases at once; answers a WorkAnswer. */
  change: '/api/inbox/:site/:form/work',
  /** GET: one case's work and its notes, each with its earlier texts (CaseWorkDetail). */
  caseWork: '/api/inbox/:site/:form/cases/:case',
  /** POST {text}: a new note on the case; answers the Note. */
  notes: '/api/inbox/:site/:form/cases/:case/notes',
  /** PUT {text}: a note's new text, the earlier one kept as a version; answers the Note. */
  note: '/api/inbox/:site/:form/cases/:case/notes/:note',
  /** GET: who may be assigned the site's cases: the people who may look them up (Assignees). */
  assignees: '/api/inbox/:site/assignees',
  /** GET `?format=csv|xlsx` with the list's query (sort_type, sort_order, filter) and `team`: the whole filtered list, as a file. */
  export: '/api/inbox/:site/:form/export',
} as const;

/** The address of `path` (one of INBOX_PATHS) with its named parts filled in. */
export function inboxPath(path: string, parts: { site: string; form?: string; case?: string; note?: string }): string {
  return path.replace(/:(site|form|case|note)\b/g, (_, name: 'site' | 'form' | 'case' | 'note') => encodeURIComponent(parts[name] ?? ''));
}

/** A case's status in the team's work; a case nobody has touched is `new`. */
export const CASE_STATUSES = ['new', 'open', 'waiting', 'done'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const CASE_STATUS_LABELS: Record<CaseStatus, string> = {
  new: 'New',
  open: 'Open',
  waiting: 'Waiting on customer',
  done: 'Done',
};

/** At most this many cases in one read or change of work: a page of the platform's list. */
export const CASE_WORK_MAX_CASES = 500;
/** A note's text at most, in characters. */
export const NOTE_MAX_LENGTH = 5000;
/** A case id as the work endpoints take it: what the platform's ids look like, bounded. */
export const CASE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The team's own filters, which the platform cannot apply (it knows nothing of the team's work): applied by
 * site-admin to the platform's pages. `mine`: assigned to the asker; `open`: not done; `new`: new to the asker.
 */
export const TEAM_FILTERS = ['mine', 'open', 'new'] as const;
export type TeamFilter = (typeof TEAM_FILTERS)[number];
export const TEAM_FILTER_LABELS: Record<TeamFilter, string> = { mine: 'Assigned to me', open: 'Not done', new: 'New to me' };

/**
 * How far back a person's "new" begins when they first open a form's inbox: the cases of the week before
 * that they have not opened count as new to them; older ones do not (a newcomer is not handed years of mail).
 */
export const NEW_WINDOW_MS = 7 * 86_400_000;

/** Whether a case received at `receivedAtMs` is new to a person whose "new" runs from `sinceMs`, given whether they saw it. */
export function isNewTo(receivedAtMs: number, seen: boolean, sinceMs: number): boolean {
  return !seen && receivedAtMs >= sinceMs;
}

const personRefSchema = z.object({ id: z.string(), name: z.string() });
export type PersonRef = z.infer<typeof personRefSchema>;

export const caseWorkSchema = z.object({
  status: z.enum(CASE_STATUSES),
  assignee: z.nullable(personRefSchema),
  /** How many notes the case has. */
  notes: z.number(),
  /** Whether the asker has seen the case. */
  seen: z.boolean(),
  /** When and by whom the status or assignee last changed; null when nobody has. */
  updatedAt: z.nullable(z.number()),
  updatedBy: z.nullable(z.string()),
});
export type CaseWork = z.infer<typeof caseWorkSchema>;

/** The work of a case nobody has touched, as the asker sees it. */
export const UNTOUCHED: CaseWork = { status: 'new', assignee: null, notes: 0, seen: false, updatedAt: null, updatedBy: null };

/** The work on the cases asked for, by case id; `since` is when the asker's "new" begins on this form (ms). */
export const workAnswerSchema = z.object({
  since: z.number(),
  cases: z.record(z.string(), caseWorkSchema),
});
export type WorkAnswer = z.infer<typeof workAnswerSchema>;

const caseIdSchema = z.string().check(z.regex(CASE_ID, 'must be a case id'));

/** A change of work on up to CASE_WORK_MAX_CASES cases; at least one of status, assignee (a person's id, or null: nobody) and seen. */
export const workChangeSchema = z
  .strictObject({
    cases: z
      .array(caseIdSchema)
      .check(
        z.minLength(1, 'must name at least one case'),
        z.maxLength(CASE_WORK_MAX_CASES, `must name at most ${CASE_WORK_MAX_CASES} cases`),
      ),
    status: z.optional(z.enum(CASE_STATUSES)),
    assignee: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(100)))),
    seen: z.optional(z.boolean()),
  })
  .check(
    z.refine((change) => change.status !== undefined || change.assignee !== undefined || change.seen !== undefined, {
      message: 'must change the status, the assignee or seen',
      path: ['cases'],
    }),
  );
export type WorkChange = z.infer<typeof workChangeSchema>;

export const noteVersionSchema = z.object({ text: z.string(), at: z.number(), by: z.string() });
export const noteSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** Who wrote it: a person's id (null: the local demo) and their name at the time. */
  author: z.object({ id: z.nullable(z.string()), name: z.string() }),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The earlier texts, oldest first (empty for a note never edited). */
  versions: z.array(noteVersionSchema),
});
export type Note = z.infer<typeof noteSchema>;

/** Control characters but tab, line feed and carriage return: never part of a note a person wrote (and NUL is refused by PostgreSQL). */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const noteBodySchema = z.strictObject({
  text: z.string().check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(NOTE_MAX_LENGTH, `must be at most ${NOTE_MAX_LENGTH} characters`),
    z.refine((text) => !CONTROL_CHARACTER.test(text), 'must not contain control characters'),
  ),
});
export type NoteBody = z.infer<typeof noteBodySchema>;

export const caseWorkDetailSchema = z.object({ work: caseWorkSchema, notes: z.array(noteSchema) });
export type CaseWorkDetail = z.infer<typeof caseWorkDetailSchema>;

export const assigneesSchema = z.object({ people: z.array(personRefSchema) });
export type Assignees = z.infer<typeof assigneesSchema>;

/** What an export can be written as. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
