using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Core.Diagnostics;
using BLite.Core.Storage;
using BLite.Serialization;

namespace BLite;

public sealed partial class DocumentCollection<TId, T>
{
    /// <summary>
    /// Bytes from a generated mapper are well formed by construction, so the engine skips its
    /// validation walk for them; a hand-written mapper's bytes are validated like any caller's.
    /// </summary>
    private bool MapperIsGenerated => Mapper is IGeneratedDocumentMapper;

    /// <summary>Stores a new document and returns its id (generated when left at its default value).</summary>
    public TId Insert(T document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_store is { } store)
        {
            return store.Insert(document);
        }

        var started = BLiteTelemetry.StartOperation();
        var result = _context.Write((Collection: this, Document: document), static (pages, s) => s.Collection.InsertCore(pages, s.Document));
        Measured(started, "insert");
        return result;
    }

    /// <summary>Stores all documents in one transaction (or the open one): all or nothing. Returns how many.</summary>
    public int InsertMany(IEnumerable<T> documents)
    {
        ArgumentNullException.ThrowIfNull(documents);
        if (_store is { } store)
        {
            return store.InsertMany(documents);
        }

        var started = BLiteTelemetry.StartOperation();
        var result = _context.Write((Collection: this, Documents: documents), static (pages, s) => s.Collection.InsertManyCore(pages, s.Documents));
        Measured(started, "insert");
        return result;
    }

    /// <summary>Replaces the stored document with the same id; false (and nothing changed) when there is none.</summary>
    public bool Update(T document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_store is { } store)
        {
            return store.Update(document);
        }

        var started = BLiteTelemetry.StartOperation();
        var result = _context.Write((Collection: this, Document: document), static (pages, s) => s.Collection.UpdateCore(pages, s.Document));
        Measured(started, "update");
        return result;
    }

    /// <summary>Inserts the document or replaces the one with its id; true when it was new.</summary>
    public bool Upsert(T document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_store is { } store)
        {
            return store.Upsert(document);
        }

        var started = BLiteTelemetry.StartOperation();
        var result = _context.Write((Collection: this, Document: document), static (pages, s) => s.Collection.UpsertCore(pages, s.Document));
        Measured(started, "upsert");
        return result;
    }

    /// <summary>Removes the document with this id; false when there is none.</summary>
    public bool Delete(TId id)
    {
        if (_store is { } store)
        {
            return store.Delete(id);
        }

        var started = BLiteTelemetry.StartOperation();
        var result = _context.Write((Collection: this, Key: LookupKey(id)), static (pages, s) => s.Collection.Documents.Delete(pages, s.Key.Span));
        Measured(started, "delete");
        return result;
    }

    /// <summary>Records a typed operation's duration when it was timed (a listener was on when it started).</summary>
    private void Measured(long startedTimestamp, string operation)
    {
        if (startedTimestamp != 0)
        {
            BLiteTelemetry.EndOperation(startedTimestamp, Documents, operation);
        }
    }

    private TId InsertCore(IPageWriter pages, T document)
    {
        var id = Mapper.GetId(document);
        var generated = _ids.CanGenerate && _ids.IsUnassigned(id);
        if (generated)
        {
            id = _ids.UsesSequence ? _ids.FromSequence(Documents.NextSequenceValue(pages)) : _ids.NewRandom();
            Mapper.SetId(document, id);
        }
        else if (id is null)
        {
            throw new ArgumentException($"A {typeof(T).Name} needs an id: {typeof(TId).Name} ids are not generated.", nameof(document));
        }

        try
        {
            using var buffer = Serialize(document);
            if (MapperIsGenerated)
            {
                Documents.InsertWellFormed(pages, buffer.WrittenSpan);
            }
            else
            {
                Documents.Insert(pages, buffer.WrittenSpan);
            }
        }
        catch when (generated)
        {
            // A refused insert leaves the caller's object as it was given.
            Mapper.SetId(document, default!);
            throw;
        }

        return id;
    }

    private int InsertManyCore(IPageWriter pages, IEnumerable<T> documents)
    {
        var count = 0;
        foreach (var document in documents)
        {
            ArgumentNullException.ThrowIfNull(document, nameof(documents));
            InsertCore(pages, document);
            count++;
        }

        return count;
    }

    private bool UpdateCore(IPageWriter pages, T document)
    {
        using var buffer = Serialize(document);
        return MapperIsGenerated ? Documents.UpdateWellFormed(pages, buffer.WrittenSpan) : Documents.Update(pages, buffer.WrittenSpan);
    }

    private bool UpsertCore(IPageWriter pages, T document)
    {
        var id = Mapper.GetId(document);
        if (_ids.CanGenerate && _ids.IsUnassigned(id))
        {
            InsertCore(pages, document);
            return true;
        }

        using var buffer = Serialize(document);
        return MapperIsGenerated ? Documents.UpsertWellFormed(pages, buffer.WrittenSpan) : Documents.Upsert(pages, buffer.WrittenSpan);
    }

    private DocumentBuffer Serialize(T document)
    {
        var buffer = DocumentBuffer.Rent();
        try
        {
            var writer = new BsonSpanWriter(buffer);
            Mapper.Serialize(document, ref writer);
            writer.Flush();
            return buffer;
        }
        catch
        {
            buffer.Dispose();
            throw;
        }
    }
}
