using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Core.Query;
using BLite.Linq.Translation;

namespace BLite.Query;

/// <summary>
/// Reads the one stored member a projection selects as is (<c>Select(a =&gt; a.Id)</c>), straight
/// into its declared type with the generated mapper's typed reader: no row, no boxing, no selector
/// to interpret per document. Built once per projection shape and value type; keeps no per-read state.
/// </summary>
internal sealed class ProjectedValueReader<TValue>
{
    private static readonly bool s_nullable = !typeof(TValue).IsValueType || Nullable.GetUnderlyingType(typeof(TValue)) is not null;

    private readonly MappedField _field;
    private readonly MemberReader<TValue> _reader;
    private readonly string _name;

    private ProjectedValueReader(MappedField field, MemberReader<TValue> reader, string name)
    {
        _field = field;
        _reader = reader;
        _name = name;
    }

    /// <summary>
    /// The reader of <paramref name="projection"/>'s single stored member, when the mapper has a
    /// typed reader of exactly <typeparamref name="TValue"/> for it; null otherwise (the row path
    /// then converts and runs the selector).
    /// </summary>
    public static ProjectedValueReader<TValue>? TryCreate<TId, T>(IDocumentMapper<TId, T> mapper, ProjectionPlan projection)
        where T : class
    {
        if (mapper is not IMemberReaderProvider provider || projection.Values is not [FieldValue field] || projection.Types[0] != typeof(TValue)
            || ProjectedRowReader.FindField(mapper, field.Path.Path) is not { } mapped
            || provider.GetMemberReader(mapped.MemberPath) is not MemberReader<TValue> reader)
        {
            return null;
        }

        return new ProjectedValueReader<TValue>(mapped, reader, projection.Names[0]);
    }

    /// <summary>The member's value in one raw document; a null or missing member reads as the row path reads it.</summary>
    public TValue Read(ReadOnlySpan<byte> document)
    {
        if (!_field.TryLocate(document, out var type, out var raw) || type == BsonType.Null)
        {
            return s_nullable ? default! : throw NullOrMissing();
        }

        // Only a string gains from the thread's table of repeated values.
        var reader = new BsonSpanReader(raw, typeof(TValue) == typeof(string) ? BsonStringTable.ForCurrentThread : null);
        return _reader.Read(ref reader, type);
    }

    private InvalidOperationException NullOrMissing() =>
        new($"The stored field '{_name}' is null or missing, so it cannot be read as {typeof(TValue).Name}.");
}
