namespace BLite.Bson;

/// <summary>
/// BSON JavaScript code with scope (type 0x0F, deprecated): code text and the document of
/// variables it was stored with. Equality compares the code and the scope's fields in order.
/// </summary>
public sealed class BsonJavaScriptWithScope : IEquatable<BsonJavaScriptWithScope>
{
    public BsonJavaScriptWithScope(string code, BsonDocument scope)
    {
        ArgumentNullException.ThrowIfNull(code);
        ArgumentNullException.ThrowIfNull(scope);
        Code = code;
        Scope = scope;
    }

    public string Code { get; }

    public BsonDocument Scope { get; }

    public bool Equals(BsonJavaScriptWithScope? other) =>
        other is not null && string.Equals(Code, other.Code, StringComparison.Ordinal) && Scope.Equals(other.Scope);

    public override bool Equals(object? obj) => Equals(obj as BsonJavaScriptWithScope);

    public override int GetHashCode() => HashCode.Combine(StringComparer.Ordinal.GetHashCode(Code), Scope.GetHashCode());
}
