namespace BLite.Bson.Mapping;

/// <summary>The generator neither stores nor reads this member.</summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Field, Inherited = true)]
public sealed class BsonIgnoreAttribute : Attribute
{
}
