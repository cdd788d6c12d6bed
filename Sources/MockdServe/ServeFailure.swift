/// Why `Serving.run` could not serve. The command line turns each into its own exit: a usage
/// error is printed with serve's usage (exit 64), as a bad option is; a reported failure was
/// already written to stderr with everything wrong (exit 1).
package enum ServeFailure: Error {
    /// Options that cannot run together or a folder they name, in a sentence naming the option.
    case usage(String)
    /// The configuration did not load, or mockd could not listen; stderr says why.
    case reported
}
