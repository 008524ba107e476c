using System.ComponentModel;
using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Query;

/// <summary>
/// Builds a projection's result from a <see cref="ProjectedRow"/>. The source generator emits one
/// per projection shape it sees in user code (<see cref="ProjectionConstructors"/>): a typed
/// constructor call whose arguments are read at their own types, so no value is boxed.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public delegate TResult ProjectionConstructor<out TResult>(ref ProjectedRow row);

/// <summary>
/// The stored members one projection reads from one raw document, located in a single pass and
/// decoded only when a generated <see cref="ProjectionConstructor{TResult}"/> asks for them. The
/// locations live on the reader's stack, and short repeated strings come from the thread's
/// <see cref="BsonStringTable"/> as they do for FindById, so building a result from it allocates
/// only the result object.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public readonly ref struct ProjectedRow
{
    private readonly ReadOnlySpan<byte> _document;
    private readonly BsonStringTable _strings;
    private readonly ReadOnlySpan<int> _offsets;
    private readonly ReadOnlySpan<BsonType> _types;
    private readonly TypedProjectionArguments _arguments;

    internal ProjectedRow(ReadOnlySpan<byte> document, ReadOnlySpan<int> offsets, ReadOnlySpan<BsonType> types, TypedProjectionArguments arguments)
    {
        _document = document;
        _strings = BsonStringTable.ForCurrentThread;
        _offsets = offsets;
        _types = types;
        _arguments = arguments;
    }

    /// <summary>
    /// Argument <paramref name="argument"/> of the projection (constructor arguments, then
    /// initialized members, in source order), read exactly as the deserializer reads that member.
    /// A null or missing value reads as null; for a non-nullable value type it throws.
    /// </summary>
    public TValue Read<TValue>(int argument)
    {
        var offset = _offsets[argument];
        var type = _types[argument];
        if (offset < 0 || type == BsonType.Null)
        {
            return default(TValue) is null ? default! : throw _arguments.NullOrMissing(argument);
        }

        // A reader per value rather than one moved between them: a reader kept in the row is
        // cleared and copied whenever a row is built, which costs more than a few of these.
        var reader = new BsonSpanReader(_document[offset..], _strings);
        return ((MemberReader<TValue>)_arguments.Readers[argument]).Read(ref reader, type);
    }
}
