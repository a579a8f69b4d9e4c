/// A problem with data given to a write: which object (its index in the input), class and
/// property, and why. Every such problem cancels the whole transaction.
public struct InputError: Error, Sendable {
    public let objectIndex: Int?
    public let className: String
    public let property: String?
    public let reason: String

    public init(objectIndex: Int? = nil, className: String, property: String? = nil, _ reason: String) {
        self.objectIndex = objectIndex
        self.className = className
        self.property = property
        self.reason = reason
    }

    public var message: String {
        var place = ""
        if let objectIndex { place += "object \(objectIndex): " }
        place += className
        if let property { place += ".\(property)" }
        return "\(place): \(reason)"
    }
}
