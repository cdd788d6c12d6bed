import MockdCore

/// Loads MockData (and, later, route tables) into a snapshot for the commands.
struct ConfigurationLoader {
    let root: String
    let routes: String?

    func load() -> MockDataLoader.Result {
        MockDataLoader(root: root).load()
    }
}
