/// Who may call the admin API, decided before any endpoint runs: the Host guard first (DNS
/// rebinding), then the token (`--admin-token`). The dashboard's page and files need no token:
/// they hold no data, and a browser cannot send one when it opens a page.
package struct AdminAccess: Sendable {
    package let hosts: AdminHostGuard
    /// `Authorization: Bearer <token>` is required when set.
    package let token: String?

    package init(allowedHosts: [String] = [], token: String? = nil) {
        hosts = AdminHostGuard(allowedHosts: allowedHosts)
        self.token = token
    }

    /// The answer refusing `request`, or nil when it may go on. `isPage`: a dashboard page or file.
    func refusal(_ request: MockRequest, isPage: Bool) -> BuiltResponse? {
        if let host = request.headers.first(named: "Host"), !hosts.allows(host: host) {
            return BuiltResponse.json(status: 403, AdminHostGuard.refusal(host: host), origin: .admin)
        }
        if let token, !isPage, request.headers.first(named: "Authorization") != "Bearer \(token)" {
            var response = BuiltResponse.json(
                status: 401, #"{"error":"the admin API needs Authorization: Bearer <token> (--admin-token)"}"# + "\n",
                origin: .admin)
            response.headers.append(HTTPHeader("WWW-Authenticate", #"Bearer realm="mockd admin""#))
            return response
        }
        return nil
    }
}
