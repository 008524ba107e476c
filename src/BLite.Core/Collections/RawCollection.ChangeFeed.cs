using System.Buffers.Binary;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections.Catalog;
using BLite.Core.Documents;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

// Collections without a change feed pay one flag test per write; only journaled collections
// copy the images and, for before-images and deletes, read the old document.
internal sealed partial class RawCollection
{
    /// <summary>
    /// Turns the change feed of this collection on (with or without before-images) or off,
    /// creating the collection if needed. True when the setting changed. Changes already
    /// journaled stay in the journal until retention trims them.
    /// </summary>
    internal bool SetChangeFeed(IPageWriter pages, ChangeFeedMode mode)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = ResolveOrCreate(pages);
        if (collection.ChangeFeed == mode)
        {
            return false;
        }

        _database.Catalog.ReplaceCollection(pages, collection.WithChangeFeed(mode));
        return true;
    }

    /// <summary>The collection's change feed setting as the snapshot sees it.</summary>
    internal ChangeFeedMode GetChangeFeed(IPageReader pages) => Resolve(pages)?.ChangeFeed ?? ChangeFeedMode.Off;

    private static bool KeepsBeforeImages(CollectionInfo collection) => (collection.ChangeFeed & ChangeFeedMode.BeforeImages) != 0;

    private void JournalWrite(IPageWriter pages, ChangeOperation operation, ReadOnlySpan<byte> document, byte[]? before)
    {
        var id = FindId(document);
        _database.ChangeFeed.Record(pages, JournalRecord.Encode(operation, Name, IdDocument(id.Type, id.Bytes(document)), document, before, JournalLogRecord.FirstEventAt));
    }

    private void JournalDelete(IPageWriter pages, CollectionInfo collection, ReadOnlySpan<byte> old)
    {
        var id = FindId(old);
        var before = KeepsBeforeImages(collection) ? old : [];
        _database.ChangeFeed.Record(pages, JournalRecord.Encode(ChangeOperation.Delete, Name, IdDocument(id.Type, id.Bytes(old)), [], before, JournalLogRecord.FirstEventAt));
    }

    /// <summary>The C-BSON document <c>{ _id: value }</c> (field id 0 is always <c>_id</c>).</summary>
    private static byte[] IdDocument(Bson.BsonType type, ReadOnlySpan<byte> value)
    {
        var bytes = new byte[4 + 1 + 2 + value.Length + 1];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, bytes.Length);
        bytes[4] = (byte)type;
        value.CopyTo(bytes.AsSpan(7));
        return bytes;
    }
}
