import Foundation

// The app's models: camelCase properties, snake_case on the wire, ISO 8601 dates.
struct Health: Decodable, Sendable { let status: String; let version: String }

struct User: Decodable, Sendable {
    let id: Int
    let firstName: String
    let lastName: String
    let email: String
    let isActive: Bool
    let createdAt: Date
}

struct UserDetail: Decodable, Sendable {
    struct Profile: Decodable, Sendable { let displayName: String; let avatarUrl: URL; let timeZone: String }
    let id: Int
    let firstName: String
    let lastName: String
    let isActive: Bool
    let createdAt: Date
    let lastLoginAt: Date
    let profile: Profile
}

struct Episode: Decodable, Sendable { let id: Int; let title: String; let durationSeconds: Int; let publishedAt: Date }
struct EpisodePage: Decodable, Sendable { let episodes: [Episode]; let nextPage: Int? }

struct LoginRequest: Encodable, Sendable { let username: String; let password: String }
struct Token: Decodable, Sendable { let accessToken: String; let tokenType: String; let expiresAt: Date }
