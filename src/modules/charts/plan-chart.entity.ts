import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A chart of a plan rendered by the worker when it stored the plan (issue 40): the response body of one chart
 * request, kept so that the first request for a large plan's chart reads it instead of waiting for the API to
 * render it. Everything that changes the body is in the key: the chart, the format, the request's parameters that
 * change the output (`params`, canonical; '' for the routes' defaults) and the revision of the chart code that
 * made it (`revision`: a body made by other chart code is never served). A plan never changes, so a row never
 * goes stale otherwise; no foreign key, as no table of the project has one (plans are not deleted).
 */
@Entity('plan_charts')
export class PlanChartEntity {
  @PrimaryColumn({ type: 'uuid', name: 'plan_id' }) planId!: string;
  @PrimaryColumn({ type: 'text' }) chart!: string;
  @PrimaryColumn({ type: 'text' }) format!: string;
  @PrimaryColumn({ type: 'text' }) params!: string;
  @PrimaryColumn({ type: 'text' }) revision!: string;
  /** The SVG, or the Vega-Lite spec as JSON text: exactly the response body. */
  @Column({ type: 'text' }) body!: string;
  /** How long the worker's chart thread took to make it (spec and render; reading the plan, shared by its charts, not counted), for the record. */
  @Column({ type: 'int', name: 'render_ms' }) renderMs!: number;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
