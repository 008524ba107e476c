namespace BLite.Bson.Mapping;

/// <summary>
/// Stores the member under <see cref="Name"/> (case-sensitive) instead of its C# name. On a
/// non-public field or property it also opts the member into mapping.
/// </summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Field, Inherited = true)]
public sealed class BsonFieldAttribute : Attribute
{
    public BsonFieldAttribute()
    {
    }

    public BsonFieldAttribute(string name)
    {
        Name = name;
    }

    /// <summary>The stored field name; the C# member name when not given.</summary>
    public string? Name { get; }
}
