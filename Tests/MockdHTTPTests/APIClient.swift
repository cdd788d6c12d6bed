import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The app's real networking code (seeds/001: "Networking Patterns Reference"), kept as written
// there so the tests prove mockd serves it unchanged. Swift 6 changes only: `T` is `Sendable`
// (it leaves the actor), `body` is `sending` (it enters the actor), and `any Error` (ExistentialAny).

protocol APIClientProtocol: Sendable {
    func request<T: Decodable & Sendable>(
        _ endpoint: String,
        method: HTTPMethod,
        body: sending (any Encodable)?,
        headers: [String: String]
    ) async throws -> T
}

enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

actor APIClient: APIClientProtocol {
    private let baseURL: URL
    private let session: URLSession
    private let decoder: JSONDecoder

    init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
        self.decoder = JSONDecoder()
        self.decoder.keyDecodingStrategy = .convertFromSnakeCase
        self.decoder.dateDecodingStrategy = .iso8601
    }

    func request<T: Decodable & Sendable>(
        _ endpoint: String,
        method: HTTPMethod = .get,
        body: sending (any Encodable)? = nil,
        headers: [String: String] = [:]
    ) async throws -> T {
        var urlRequest = URLRequest(url: baseURL.appendingPathComponent(endpoint))
        urlRequest.httpMethod = method.rawValue
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (key, value) in headers {
            urlRequest.setValue(value, forHTTPHeaderField: key)
        }
        if let body {
            urlRequest.httpBody = try JSONEncoder().encode(body)
        }

        let (data, response) = try await session.data(for: urlRequest)

        guard let httpResponse = response as? HTTPURLResponse else {
            throw NetworkError.invalidResponse
        }

        guard (200...299).contains(httpResponse.statusCode) else {
            throw NetworkError.httpError(statusCode: httpResponse.statusCode, data: data)
        }

        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw NetworkError.decodingFailed(error)
        }
    }
}

enum NetworkError: Error, LocalizedError {
    case invalidResponse
    case httpError(statusCode: Int, data: Data)
    case decodingFailed(any Error)
    case noConnection
    case timeout

    var errorDescription: String? {
        switch self {
        case .invalidResponse: "Invalid server response"
        case .httpError(let code, _): "Server error (\(code))"
        case .decodingFailed: "Failed to process server response"
        case .noConnection: "No internet connection"
        case .timeout: "Request timed out"
        }
    }
}
