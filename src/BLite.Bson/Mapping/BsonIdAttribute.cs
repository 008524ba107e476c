namespace BLite.Bson.Mapping;

/// <summary>
/// Marks the member that is the document id, stored as <c>_id</c>. Without it, a member named
/// <c>Id</c> is the id.
/// </summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Field, Inherited = true)]
public sealed class BsonIdAttribute : Attribute
{
}
