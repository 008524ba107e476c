using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Collections;

namespace BLite.Serialization;

/// <summary>
/// What the typed collections need to know about an id type: whether a value is "not assigned
/// yet" (so the database generates one) and its primary key. The <c>typeof</c> tests fold away
/// per instantiation, so there is no boxing and no reflection.
/// </summary>
internal static class IdValues<TId>
{
    /// <summary>True for the id kinds the database can generate: ObjectId, Guid, int and long.</summary>
    public static readonly bool CanGenerate =
        typeof(TId) == typeof(ObjectId) || typeof(TId) == typeof(Guid) || typeof(TId) == typeof(int) || typeof(TId) == typeof(long);

    /// <summary>Int32 and Int64 ids come from the collection's transactional sequence.</summary>
    public static readonly bool UsesSequence = typeof(TId) == typeof(int) || typeof(TId) == typeof(long);

    public static bool IsUnassigned(TId id)
    {
        if (typeof(TId) == typeof(ObjectId))
        {
            return Unsafe.As<TId, ObjectId>(ref id) == ObjectId.Empty;
        }

        if (typeof(TId) == typeof(Guid))
        {
            return Unsafe.As<TId, Guid>(ref id) == Guid.Empty;
        }

        if (typeof(TId) == typeof(int))
        {
            return Unsafe.As<TId, int>(ref id) == 0;
        }

        if (typeof(TId) == typeof(long))
        {
            return Unsafe.As<TId, long>(ref id) == 0;
        }

        return false;
    }

    /// <summary>A new id that needs no sequence (ObjectId, Guid).</summary>
    public static TId NewRandom()
    {
        if (typeof(TId) == typeof(ObjectId))
        {
            var id = ObjectId.NewObjectId();
            return Unsafe.As<ObjectId, TId>(ref id);
        }

        var guid = Guid.CreateVersion7();
        return Unsafe.As<Guid, TId>(ref guid);
    }

    public static TId FromSequence(long value)
    {
        if (typeof(TId) == typeof(int))
        {
            var narrowed = checked((int)value);
            return Unsafe.As<int, TId>(ref narrowed);
        }

        return Unsafe.As<long, TId>(ref value);
    }

    public static BsonValue ToBsonValue(TId id)
    {
        if (typeof(TId) == typeof(ObjectId))
        {
            return Unsafe.As<TId, ObjectId>(ref id);
        }

        if (typeof(TId) == typeof(Guid))
        {
            return Unsafe.As<TId, Guid>(ref id);
        }

        if (typeof(TId) == typeof(int))
        {
            return Unsafe.As<TId, int>(ref id);
        }

        if (typeof(TId) == typeof(long))
        {
            return Unsafe.As<TId, long>(ref id);
        }

        if (typeof(TId) == typeof(string))
        {
            return Unsafe.As<TId, string>(ref id);
        }

        throw new NotSupportedException($"Id type {typeof(TId).Name} is not supported; use ObjectId, Guid, int, long or string.");
    }

    /// <summary>The id stored as <paramref name="value"/> (the inverse of <see cref="ToBsonValue"/>).</summary>
    public static TId FromBsonValue(BsonValue value)
    {
        if (typeof(TId) == typeof(ObjectId))
        {
            var id = value.AsObjectId;
            return Unsafe.As<ObjectId, TId>(ref id);
        }

        if (typeof(TId) == typeof(Guid))
        {
            var id = value.AsGuid;
            return Unsafe.As<Guid, TId>(ref id);
        }

        if (typeof(TId) == typeof(int))
        {
            var id = value.AsInt32;
            return Unsafe.As<int, TId>(ref id);
        }

        if (typeof(TId) == typeof(long))
        {
            var id = value.Type == BsonType.Int32 ? value.AsInt32 : value.AsInt64;
            return Unsafe.As<long, TId>(ref id);
        }

        if (typeof(TId) == typeof(string))
        {
            var id = value.AsString;
            return Unsafe.As<string, TId>(ref id);
        }

        throw new NotSupportedException($"Id type {typeof(TId).Name} is not supported; use ObjectId, Guid, int, long or string.");
    }

    /// <summary>The same key as <see cref="EncodeKey"/>, held inline unless it is a long string (a lookup then allocates nothing).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static PrimaryKeyBytes EncodeKeyBytes(TId id)
    {
        if (typeof(TId) == typeof(ObjectId))
        {
            return PrimaryKeyBytes.Of(Unsafe.As<TId, ObjectId>(ref id));
        }

        if (typeof(TId) == typeof(Guid))
        {
            return PrimaryKeyBytes.Of(Unsafe.As<TId, Guid>(ref id));
        }

        if (typeof(TId) == typeof(int))
        {
            return PrimaryKeyBytes.Of(Unsafe.As<TId, int>(ref id));
        }

        if (typeof(TId) == typeof(long))
        {
            return PrimaryKeyBytes.Of(Unsafe.As<TId, long>(ref id));
        }

        if (typeof(TId) == typeof(string) && id is string { Length: <= PrimaryKeyBytes.MaxInlineStringLength } text)
        {
            return PrimaryKeyBytes.OfShortString(text);
        }

        return PrimaryKeyBytes.FromArray(EncodeKey(id));
    }

    /// <summary>The encoded primary key of an id, as the collections layer keys <c>_id</c>.</summary>
    public static byte[] EncodeKey(TId id)
    {
        if (id is null)
        {
            throw new ArgumentNullException(nameof(id), "A document id cannot be null.");
        }

        return IndexKeys.EncodeId(ToBsonValue(id));
    }
}
