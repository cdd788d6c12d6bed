/// One call of the admin API, decided: when its answer can be made (`work`) and how. Made by
/// `AdminAPI.call(for:access:)`; the adapter runs `answer(_:)` when `work` says, with the
/// context of that moment (a long poll answers with the snapshot served when news comes), and
/// carries out the effects the step it gets names.
package struct AdminCall: Sendable {
    package let work: AdminWork
    /// It may change what dashboards show (a scenario set, a reset): they are told once it is answered.
    package let changesState: Bool
    private let respond: @Sendable (AdminAPI.Context) -> AdminStep

    init(work: AdminWork = .now, changesState: Bool = false, _ respond: @escaping @Sendable (AdminAPI.Context) -> AdminStep) {
        self.work = work
        self.changesState = changesState
        self.respond = respond
    }

    /// A call whose answer is already known (a refusal, a page, a 404).
    static func answered(_ response: BuiltResponse) -> AdminCall {
        AdminCall { _ in .answer(response) }
    }

    package func answer(_ context: AdminAPI.Context) -> AdminStep {
        respond(context)
    }
}
