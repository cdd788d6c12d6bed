public import ArgumentParser  // the conformances below are public: swift-log's level is a public type
import Logging
import MockdCore
import MockdHTTP

// Options whose value is one of a few words: the argument parser reads them itself, lists the
// words in `--help`, and refuses any other word naming the choices.
extension MockdLogHandler.Format: ExpressibleByArgument {}
extension ServerConfiguration.CredentialPolicy: ExpressibleByArgument {}
extension OperationTable.Validation: ExpressibleByArgument {}
// swift-log's level names are the option's words (`trace` … `critical`).
extension Logger.Level: @retroactive ExpressibleByArgument {}
