/// Timing rules for tests that run in parallel on a machine that may be busy (CI, other builds).
///
/// Waits are event-driven: they end as soon as what they wait for happens, so their deadlines
/// can be generous at no cost when all is well. Wall-clock upper bounds only tell "promptly"
/// from "waited for a timeout many times as long", never time a fast path, and allow for load.

/// How much longer than on a quiet machine a wall-clock upper bound allows: with both cores
/// kept busy, a task waiting to resume was seen to lose seconds.
package let loadAllowance = 6

/// How long a test waits for something that should happen at once (a connection, a line, a
/// reload): a deadline, not a sleep.
package let eventDeadline: Duration = .seconds(30)
