/// Who may call the admin API, decided before any endpoint runs: the Host guard first (DNS
/// rebinding), then the token (`--admin-token`). The dashboard's page and files need no token:
/// they hold no data, and a browser cannot send one when it opens a page.
package struct AdminAccess: Sendable {
    package let hosts: AdminHostGuard
    /// `Authorization: Bearer <token>` is required when set.
    package let token: String?
    /// The whole `Authorization` value the token asks for, made once.
    private let expectedAuthorization: [UInt8]?

    package init(allowedHosts: [String] = [], token: String? = nil) {
        hosts = AdminHostGuard(allowedHosts: allowedHosts)
        self.token = token
        expectedAuthorization = token.map { Array("Bearer \($0)".utf8) }
    }

    /// The answer refusing `request`, or nil when it may go on. `isPage`: a dashboard page or file.
    func refusal(_ request: MockRequest, isPage: Bool) -> BuiltResponse? {
        let host = request.headers.first(named: "Host")
        if !hosts.allows(host: host) {
            return AdminHostGuard.refusal(host: host).response(origin: .admin, layout: .compact)
        }
        if let expectedAuthorization, !isPage,
            !ConstantTime.equals(request.headers.first(named: "Authorization") ?? "", expectedAuthorization)
        {
            return Self.missingToken.response(origin: .admin, layout: .compact)
        }
        return nil
    }

    /// The 401 for a call without the token; `WWW-Authenticate` names the scheme to answer with.
    static let missingToken = ErrorAnswer(
        401, "the admin API needs Authorization: Bearer <token> (--admin-token)",
        headers: [HTTPHeader("WWW-Authenticate", #"Bearer realm="mockd admin""#)])
}
