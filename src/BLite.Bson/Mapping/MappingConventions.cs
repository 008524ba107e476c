namespace BLite.Bson.Mapping;

/// <summary>
/// Names shared by the runtime and the source generator (the generator links this file, so the two
/// can never disagree).
/// </summary>
internal static class MappingConventions
{
    public const string IdFieldName = "_id";
    public const string DiscriminatorFieldName = "_t";
    public const string IdMemberName = "Id";
    public const string MappingNamespace = "BLite.Bson.Mapping";
    public const string DocumentAttribute = MappingNamespace + ".BLiteDocumentAttribute";
    public const string IdAttribute = MappingNamespace + ".BsonIdAttribute";
    public const string IgnoreAttribute = MappingNamespace + ".BsonIgnoreAttribute";
    public const string FieldAttribute = MappingNamespace + ".BsonFieldAttribute";
    public const string DerivedTypeAttribute = MappingNamespace + ".BLiteDerivedTypeAttribute";
    public const string ObjectIdType = "BLite.ObjectId";
    public const string DbContextType = "BLite.DocumentDbContext";
    public const string CollectionType = "BLite.DocumentCollection`2";
}
