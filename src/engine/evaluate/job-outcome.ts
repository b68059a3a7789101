/**
 * One job's outcome in a plan, as the evaluator reports it (Kpis.jobs) and the batch and POSUM KPIs read it:
 * in a file of its own so that those KPIs and the evaluator that calls them do not import each other.
 */
export interface JobOutcome {
  id: string;
  accepted: boolean;
  endSlot: number | null;
  deadlineSlot: number | null;
  onTime: boolean | null;
  revenue: number;
}
