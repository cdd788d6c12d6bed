import MockdCore

/// Loads MockData and route tables into a snapshot for the commands.
struct ConfigurationLoader: Sendable {
    let root: String
    let routes: String?

    func load() -> MockDataLoader.Result {
        MockDataLoader(root: root, routes: routes).load()
    }
}
