/// One push the core decided to send: which simulator, which app, what payload, when. The
/// adapter carries it out (`xcrun simctl push DEVICE BUNDLE -`, the payload on standard input)
/// and writes the journal entry `entry(_:)` makes of what came of it.
package struct PushOrder: Sendable {
    /// The payload file's name; nil for a payload given whole in the call.
    package let name: String?
    /// `booted` or a simulator's UDID.
    package let device: String
    package let bundleID: String
    /// The JSON sent.
    package let payload: [UInt8]
    /// How long after the call (or a route's answer) it is sent.
    package let afterMilliseconds: Int
    /// The session it was sent for, which its journal entry belongs to.
    package let session: String?
    /// What asked for it, as the journal's `source` says (`admin`, `route routes/chat.json#0`).
    package let trigger: String
    /// The scenario its payload file was read in ("" for a payload given whole).
    package let scenario: String

    package init(
        name: String?, device: String, bundleID: String, payload: [UInt8], afterMilliseconds: Int = 0, session: String? = nil,
        trigger: String = "admin", scenario: String = ""
    ) {
        self.scenario = scenario
        self.name = name
        self.device = device
        self.bundleID = bundleID
        self.payload = payload
        self.afterMilliseconds = afterMilliseconds
        self.session = session
        self.trigger = trigger
    }

    /// What the push command is given after its own name: simctl's arguments, the payload
    /// read from standard input (`-`).
    package var simctlArguments: [String] { ["simctl", "push", device, bundleID, "-"] }

    /// The journal's entry for this push: kind `push`, status 201 when simctl succeeded and 502
    /// when it did not, the payload as its body. `time` in seconds since 1970.
    package func entry(_ outcome: PushOutcome, time: Double, durationMicroseconds: UInt64, bodyLimit: Int) -> RequestJournal.Entry {
        RequestJournal.Entry(
            time: time, method: "PUSH", path: name ?? "", query: "", headers: [], body: Array(payload.prefix(bodyLimit)),
            bodyTruncated: payload.count > bodyLimit, scenario: scenario, session: session,
            source: "push \(name ?? "payload") to \(device) \(bundleID) (\(trigger))", kind: .push,
            status: outcome.succeeded ? 201 : 502, durationMicroseconds: durationMicroseconds,
            push: RequestJournal.Push(device: device, bundleID: bundleID, name: name, outcome: outcome))
    }
}

/// What came of running the push command.
package struct PushOutcome: Sendable, Equatable {
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// It outlasted mockd's wait and was killed.
        case timedOut
        /// It could not be started, with why.
        case notStarted(String)
    }

    package let ending: Ending
    package let standardOutput: String
    package let standardError: String

    package init(ending: Ending, standardOutput: String = "", standardError: String = "") {
        self.ending = ending
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    package var succeeded: Bool { ending == .exited(0) }

    /// `: ` and the command's last line of standard error, for the `error` of a failure; "" when it said nothing.
    private var said: String {
        let lines = standardError.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
        return lines.last.map { ": " + $0 } ?? ""
    }

    /// `exitStatus`, and why it failed, as the answer and the journal show them.
    var members: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [("result", .string(succeeded ? "sent" : "failed"))]
        switch ending {
        case .exited(0): members.append(("exitStatus", 0))
        case .exited(let status):
            members += [("exitStatus", .number(Int(status))), ("error", .string("the push command exited with status \(status)" + said))]
        case .signaled(let signal):
            members += [
                ("exitStatus", .null), ("signal", .number(Int(signal))), ("error", .string("signal \(signal) ended the push command")),
            ]
        case .timedOut: members += [("exitStatus", .null), ("error", .string("the push command did not end in time and was killed"))]
        case .notStarted(let why): members += [("exitStatus", .null), ("error", .string("the push command could not start: \(why)"))]
        }
        members += [("stdout", .string(standardOutput)), ("stderr", .string(standardError))]
        return members
    }
}

/// Where a session's pushes go (`POST /__mockd/sessions {"device": UDID, "bundleId": …}`),
/// so parallel clones each get their own.
package struct PushTarget: Sendable, Equatable {
    package var device: String?
    package var bundleID: String?

    package init(device: String? = nil, bundleID: String? = nil) {
        self.device = device
        self.bundleID = bundleID
    }
}
