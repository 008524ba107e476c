namespace BLite.PostgreSql.Storage;

internal sealed partial class PostgreSqlCollection<TId, T>
{
    /// <summary>An insert refused by a unique secondary index (the id itself was free).</summary>
    private BLiteUniqueConstraintException UniqueIndexViolation(TId id) =>
        new(_collection.Name, "unique index", SqlNames.Describe(_ids.ToKey(id)));
}
