/**
 * Which KafkaJS send errors are worth retrying. KafkaJS wraps the last error of its own retries in
 * `KafkaJSNumberOfRetriesExceeded`, a "non-retriable" error by its class, and gives up on a broker it cannot
 * reach with connection errors; both say only that KafkaJS's short retries ran out, not that the records are
 * bad. So the cause chain decides: a send is refused for good only when the broker answered with a protocol
 * error it marks non-retriable (a record too large, an authorisation failure, an invalid record) or the
 * client cannot speak to it at all (unsupported API, bad encoding). Anything else (connection refused or
 * closed, request timeouts, missing metadata or leaders, no broker available) stays retryable, so the
 * buffered emitter rides out a broker outage within its time budget.
 */

/** KafkaJS errors that are a permanent refusal whatever their cause. */
const PERMANENT_NAMES: ReadonlySet<string> = new Set([
  'KafkaJSServerDoesNotSupportApiKey',
  'KafkaJSUnsupportedMagicByteInMessageSet',
  'KafkaJSInvalidVarIntError',
  'KafkaJSInvalidLongError',
  'KafkaJSInvariantViolation',
]);

interface KafkaLikeError {
  name?: unknown;
  retriable?: unknown;
  cause?: unknown;
  type?: unknown;
}

/** True when a KafkaJS send error (or one in its cause chain) refuses the records for good. */
export function isPermanentKafkaError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e !== null && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const { name, retriable, cause } = e as KafkaLikeError;
    if (typeof name === 'string' && PERMANENT_NAMES.has(name)) return true;
    // A broker's answer: KafkaJS marks each protocol error retriable or not from Kafka's own error table.
    if (name === 'KafkaJSProtocolError' || name === 'KafkaJSCreateTopicError') return retriable === false;
    // Only a wrapper (retries exhausted, a non-retriable wrapper) with a cause defers to that cause.
    if (cause === undefined || cause === e) return false;
    e = cause;
  }
  return false;
}
