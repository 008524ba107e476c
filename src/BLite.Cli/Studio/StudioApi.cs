using BLite.Bson;
using BLite.Cli.Database;
using BLite.Core;
using BLite.Core.Collections;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace BLite.Cli.Studio;

/// <summary>
/// The JSON API behind the pages. Reads use one snapshot each; writes are single auto-committed
/// transactions, so a refused write leaves nothing behind. Read-only studios map the same routes
/// and refuse every write with 403.
/// </summary>
internal sealed partial class StudioApi
{
    private const int DefaultPageSize = 50;
    private const int MaxPageSize = 1000;

    private readonly DocumentDatabase _database;
    private readonly StudioOptions _options;
    private readonly AsyncLocal<DocumentDatabase?> _requestView = new();
    private readonly IndexBuilds _indexBuilds = new();

    private StudioApi(DocumentDatabase database, StudioOptions options)
    {
        _database = database;
        _options = options;
    }

    public static void Map(WebApplication app, DocumentDatabase database, StudioOptions options)
    {
        var api = new StudioApi(database, options);
        if (options.ReadOnly)
        {
            app.Use(api.WithFreshView);
        }

        app.MapGet("/api/overview", api.Overview);
        app.MapPost("/api/check", api.Check);
        app.MapGet("/api/collections", api.Collections);
        app.MapGet("/api/collections/{name}/size", api.CollectionSize);
        app.MapGet("/api/collections/{name}/documents", api.Documents);
        app.MapGet("/api/collections/{name}/document", api.Document);
        app.MapPost("/api/collections/{name}/query", api.Query);
        app.MapPost("/api/collections/{name}/documents", api.Insert);
        app.MapPut("/api/collections/{name}/documents", api.Replace);
        app.MapDelete("/api/collections/{name}/documents", api.Delete);
        app.MapGet("/api/collections/{name}/indexes", api.Indexes);
        app.MapPost("/api/collections/{name}/indexes", api.CreateIndex);
        app.MapDelete("/api/collections/{name}/indexes/{index}", api.DropIndex);
        app.MapGet("/api/collections/{name}/indexes/{index}/progress", api.IndexProgress);
        app.MapGet("/api/collections/{name}/export", api.Export);
        app.MapPost("/api/collections/{name}/import", api.Import);
    }

    /// <summary>
    /// The database this request reads: the studio's own writable one, or in a read-only studio
    /// the view opened for this request.
    /// </summary>
    private DocumentDatabase Database => _requestView.Value ?? _database;

    /// <summary>
    /// A read-only view is a snapshot as of its open, and a checkpoint by the application that
    /// writes the database ends it (docs/storage.md). So a read-only studio opens a view for each
    /// API request: every page shows the application's latest commits.
    /// </summary>
    private async Task WithFreshView(HttpContext context, RequestDelegate next)
    {
        if (!context.Request.Path.StartsWithSegments("/api"))
        {
            await next(context).ConfigureAwait(false);
            return;
        }

        using var view = DatabaseFiles.OpenForReading(_options.DatabasePath);
        _requestView.Value = view;
        try
        {
            await next(context).ConfigureAwait(false);
        }
        finally
        {
            _requestView.Value = null;
        }
    }

    private void EnsureWritable()
    {
        if (_options.ReadOnly)
        {
            throw new StudioException(StatusCodes.Status403Forbidden, "this studio was opened with --read-only; nothing can be changed.");
        }
    }

    private void EnsureCollection(string name)
    {
        try
        {
            DatabaseFiles.EnsureCollectionExists(Database, name);
        }
        catch (Commands.CommandException exception)
        {
            throw new StudioException(StatusCodes.Status404NotFound, exception.Message);
        }
    }

    /// <summary>
    /// A document's _id travels as the canonical Extended JSON of <c>{"_id": value}</c>, which
    /// keeps its exact type (an Int64 stays an Int64, an ObjectId an ObjectId).
    /// </summary>
    private static BsonValue ParseId(string? text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "the document's id is missing (id={\"_id\": ...}).");
        }

        var document = BsonDocument.Parse(text);
        if (document.Count != 1 || !document.TryGetValue("_id", out var id))
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "the id must be a document with exactly one field, _id.");
        }

        return id;
    }

    private static string IdJson(BsonDocument document) =>
        new BsonDocument { { "_id", document.TryGetValue("_id", out var id) ? id : BsonValue.Null } }.ToJson(BsonJsonMode.Canonical);

    private static StudioDocument Describe(BsonDocument document, string key) =>
        new(key, IdJson(document), document.ToJson(BsonJsonMode.Relaxed));
}

/// <summary>One row of a documents table: its opaque paging key, its id (see <c>ParseId</c>) and its relaxed Extended JSON.</summary>
internal sealed record StudioDocument(string Key, string Id, string Json);
