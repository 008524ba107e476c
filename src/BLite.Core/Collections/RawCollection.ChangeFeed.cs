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
        ChangeFeedModes.Checked(mode, nameof(mode));
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
        var value = id.Bytes(document);
        var size = IdDocumentSize(value.Length);
        var idDocument = size <= MaxStackIdDocument ? stackalloc byte[size] : new byte[size];
        WriteIdDocument(idDocument, id.Type, value);
        _database.ChangeFeed.Record(pages, operation, JournalName, idDocument, document, before);
    }

    private void JournalDelete(IPageWriter pages, CollectionInfo collection, ReadOnlySpan<byte> old)
    {
        var id = FindId(old);
        var value = id.Bytes(old);
        var size = IdDocumentSize(value.Length);
        var idDocument = size <= MaxStackIdDocument ? stackalloc byte[size] : new byte[size];
        WriteIdDocument(idDocument, id.Type, value);
        var before = KeepsBeforeImages(collection) ? old : [];
        _database.ChangeFeed.Record(pages, ChangeOperation.Delete, JournalName, idDocument, [], before);
    }

    // The name as events carry it, encoded once.
    private byte[] JournalName => _journalName ??= System.Text.Encoding.UTF8.GetBytes(Name);

    private byte[]? _journalName;

    // The id document only lives until it is copied into the event record, so small ones stay on the stack.
    private const int MaxStackIdDocument = 256;

    private static int IdDocumentSize(int valueLength) => 4 + 1 + 2 + valueLength + 1;

    /// <summary>Writes the C-BSON document <c>{ _id: value }</c> (field id 0 is always <c>_id</c>).</summary>
    private static void WriteIdDocument(Span<byte> bytes, Bson.BsonType type, ReadOnlySpan<byte> value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(bytes, bytes.Length);
        bytes[4] = (byte)type;
        bytes[5] = 0;
        bytes[6] = 0;
        value.CopyTo(bytes[7..]);
        bytes[^1] = 0;
    }
}
