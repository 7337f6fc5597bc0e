// The metrics store's samples of one bundle (metric_samples) with what the
// timeline and the chain verdict both judge them by, as WITH-clause
// entries, so that a drop and a run of a firing alert mean one thing in
// both: a drop is a sample below the one before it in its series; a run of
// firing samples starts after a gap of more than two steps and ends a step
// after its last sample, unless that sample is at the end of the window.
#ifndef GPUF_ANALYZER_TIMELINE_METRIC_POINTS_H_
#define GPUF_ANALYZER_TIMELINE_METRIC_POINTS_H_

namespace gpuf {

// allocatable_points(artifact_id, series, metric, resource, time_ns, value, step_s, value_before)
inline constexpr char kAllocatablePoints[] = R"sql(allocatable_points AS (
  SELECT m.artifact_id, m.series, m.metric, m.resource, m.time_ns, m.value, q.step_s,
         lag(m.value) OVER (PARTITION BY m.artifact_id, m.series ORDER BY m.time_ns) AS value_before
  FROM metric_samples m JOIN artifacts a USING (artifact_id)
       JOIN metric_queries q ON q.artifact_id = m.artifact_id AND q.name = m.query
  WHERE a.bundle_id = :bundle AND m.query = 'allocatable'))sql";

// firing_points(artifact_id, series, alertname, time_ns, step_ns, run_start, run_end)
inline constexpr char kFiringPoints[] = R"sql(firing_steps AS (
  SELECT m.artifact_id, m.series, m.alertname, m.time_ns, q.end_ns, q.step_s * 1000000000 AS step_ns,
         lag(m.time_ns) OVER w AS time_before, lead(m.time_ns) OVER w AS time_after
  FROM metric_samples m JOIN artifacts a USING (artifact_id)
       JOIN metric_queries q ON q.artifact_id = m.artifact_id AND q.name = m.query
  WHERE a.bundle_id = :bundle AND m.query = 'alerts' AND m.alertstate = 'firing'
  WINDOW w AS (PARTITION BY m.artifact_id, m.series ORDER BY m.time_ns)),
firing_points AS (
  SELECT artifact_id, series, alertname, time_ns, step_ns,
         time_before IS NULL OR time_ns - time_before > 2 * step_ns AS run_start,
         coalesce(time_after - time_ns > 2 * step_ns, time_ns < end_ns - 2 * step_ns, 0) AS run_end
  FROM firing_steps))sql";

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_METRIC_POINTS_H_
