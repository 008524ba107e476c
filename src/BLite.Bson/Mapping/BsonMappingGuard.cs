namespace BLite.Bson.Mapping;

/// <summary>Exceptions generated serializers throw; built here so the generated hot paths stay small.</summary>
public static class BsonMappingGuard
{
    /// <summary>
    /// A serializer about to nest deeper than <see cref="BsonLimits.MaxDepth"/>. A reference cycle in
    /// the object graph (a category that is its own ancestor) always ends here, so the message says so.
    /// </summary>
    public static BsonMappingException TooDeep(string typeName)
        => new(
            $"Cannot serialize '{typeName}': the object graph nests deeper than {BsonLimits.MaxDepth} documents and arrays. " +
            "It contains a reference cycle (an object that is its own ancestor) or is too deep to store.");

    /// <summary>An instance of a type derived from a polymorphic base that no [BLiteDerivedType] declares.</summary>
    public static BsonMappingException UndeclaredDerivedType(object value, string baseType)
        => new($"Cannot serialize a '{value.GetType().FullName}' as '{baseType}': declare it with [BLiteDerivedType(typeof(...), \"discriminator\")] on the base type.");
}
