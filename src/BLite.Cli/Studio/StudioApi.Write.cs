using BLite.Bson;
using BLite.Cli.Commands;
using BLite.Core.Collections;
using Microsoft.AspNetCore.Http;

namespace BLite.Cli.Studio;

internal sealed partial class StudioApi
{
    /// <summary>Inserts a document; without an _id it gets a new ObjectId, as on import.</summary>
    private IResult Insert(string name, StudioDocumentText body)
    {
        EnsureWritable();
        EnsureCollection(name);
        var document = ParseDocument(body);
        var id = Database.GetCollection(name).Insert(document);
        return Results.Json(new { id = new BsonDocument { { "_id", id } }.ToJson(BsonJsonMode.Canonical) }, statusCode: StatusCodes.Status201Created);
    }

    /// <summary>Replaces the document with the same _id; 404 (and nothing written) when there is none.</summary>
    private IResult Replace(string name, StudioDocumentText body)
    {
        EnsureWritable();
        EnsureCollection(name);
        var document = ParseDocument(body);
        if (!document.ContainsKey("_id"))
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "the document needs its _id: the _id says which document to replace.");
        }

        if (!Database.GetCollection(name).Update(document))
        {
            throw new StudioException(StatusCodes.Status404NotFound, $"collection '{name}' has no document with {IdJson(document)}; nothing was written.");
        }

        return Results.Json(new { id = IdJson(document) });
    }

    private IResult Delete(string name, string? id)
    {
        EnsureWritable();
        EnsureCollection(name);
        if (!Database.GetCollection(name).Delete(ParseId(id)))
        {
            throw new StudioException(StatusCodes.Status404NotFound, $"collection '{name}' has no document with {id}.");
        }

        return Results.Json(new { deleted = id });
    }

    private IResult Indexes(string name)
    {
        EnsureCollection(name);
        using var read = Database.BeginRead();
        var indexes = new List<object> { new { name = "_id", fields = new[] { "_id" }, unique = true, primary = true } };
        foreach (var index in Database.GetRawCollection(name).GetIndexes(read))
        {
            indexes.Add(new { name = index.Name, fields = index.FieldPaths, unique = index.Unique, primary = false });
        }

        return Results.Json(indexes);
    }

    /// <summary>Builds an index over the existing documents in one transaction; a unique index that the data breaks is refused whole.</summary>
    private IResult CreateIndex(string name, StudioIndex body)
    {
        EnsureWritable();
        EnsureCollection(name);
        var fields = (body.Fields ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (string.IsNullOrWhiteSpace(body.Name) || fields.Length == 0)
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "an index needs a name and at least one field path.");
        }

        var definition = new IndexDefinition(body.Name, fields, body.Unique);
        var collection = Database.GetCollection(name);
        var build = _indexBuilds.Start(name, body.Name, collection.Count());
        bool created;
        try
        {
            created = collection.EnsureIndex(definition, build);
        }
        finally
        {
            build.Finish();
        }

        if (!created)
        {
            throw new StudioException(StatusCodes.Status409Conflict, $"collection '{name}' already has an index named '{body.Name}'.");
        }

        return Results.Json(new { created = body.Name, documents = build.Read }, statusCode: StatusCodes.Status201Created);
    }

    /// <summary>How far the build of this index has read, while its POST waits; 404 before any build of it.</summary>
    private IResult IndexProgress(string name, string index)
    {
        var build = _indexBuilds.Find(name, index)
            ?? throw new StudioException(StatusCodes.Status404NotFound, $"no build of index '{index}' on '{name}' has started.");
        return Results.Json(new { read = build.Read, total = build.Total, finished = build.Finished });
    }

    private IResult DropIndex(string name, string index)
    {
        EnsureWritable();
        EnsureCollection(name);
        if (!Database.GetCollection(name).DropIndex(index))
        {
            throw new StudioException(StatusCodes.Status404NotFound, $"collection '{name}' has no index named '{index}'.");
        }

        return Results.Json(new { dropped = index });
    }

    private static BsonDocument ParseDocument(StudioDocumentText body)
    {
        if (string.IsNullOrWhiteSpace(body.Json))
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "the document is empty.");
        }

        try
        {
            return BsonDocument.Parse(body.Json);
        }
        catch (BsonFormatException exception)
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "not a valid document: " + exception.Message);
        }
    }
}

/// <summary>A document as the editor sends it: Extended JSON text.</summary>
internal sealed record StudioDocumentText(string? Json);

internal sealed record StudioIndex(string? Name, string? Fields, bool Unique);
