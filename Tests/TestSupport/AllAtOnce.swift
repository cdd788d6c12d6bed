/// Runs `count` operations at once (`operation(i)`, usually a request through URLSession) and
/// returns their results in the order they ended; the first failure is thrown once all have ended.
///
/// No operation throws into the task group, so one failed request never cancels the others:
/// swift-corelibs-foundation can deadlock when a task is cancelled just as its URLSession request
/// completes (the cancellation handler waits for the session's queue while holding the task's
/// status lock, and that queue waits for the same lock to resume the task). A group whose child
/// threw hung a whole `swift test` run that way.
package func allAtOnce<T: Sendable>(_ count: Int, _ operation: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
    let outcomes = await withTaskGroup(of: Result<T, any Error>.self) { group in
        for index in 0..<count {
            group.addTask {
                do { return .success(try await operation(index)) } catch { return .failure(error) }
            }
        }
        return await group.reduce(into: [Result<T, any Error>]()) { $0.append($1) }
    }
    return try outcomes.map { try $0.get() }
}
