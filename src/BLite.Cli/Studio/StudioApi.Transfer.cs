using BLite.Bson;
using BLite.Cli.Commands;
using BLite.Cli.Transfer;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace BLite.Cli.Studio;

/// <summary>Import and export through the very code of <c>blite import</c> and <c>blite export</c>.</summary>
internal sealed partial class StudioApi
{
    private static readonly ExportCommand ExportCommandSpec = new();
    private static readonly ImportCommand ImportCommandSpec = new();

    private async Task Export(HttpContext context, string name, string? format)
    {
        EnsureCollection(name);
        var transfer = Format(format, ExportCommandSpec.Name);
        var extension = transfer == TransferFormat.Bson ? "bson" : "jsonl";
        context.Response.ContentType = transfer == TransferFormat.Bson ? "application/octet-stream" : "application/x-ndjson";
        context.Response.Headers.ContentDisposition = $"attachment; filename=\"{name}.{extension}\"";
        // The exporter writes synchronously, as it does to a file; a local tool can spare the thread.
        context.Features.GetRequiredFeature<IHttpBodyControlFeature>().AllowSynchronousIO = true;
        using var read = Database.BeginRead();
        ExportCommand.Export(Database.GetRawCollection(name), read, Database.Fields, context.Response.Body, transfer, BsonJsonMode.Canonical, CommandContext.Silent);
        await context.Response.Body.FlushAsync().ConfigureAwait(false);
    }

    /// <summary>The whole upload is one transaction: a bad line or a duplicate _id imports nothing.</summary>
    private IResult Import(HttpContext context, string name, string? format)
    {
        EnsureWritable();
        var transfer = Format(format, ImportCommandSpec.Name);
        try
        {
            ImportCommandSpec.ValidateCollectionName(name);
        }
        catch (Arguments.UsageException exception)
        {
            throw new StudioException(StatusCodes.Status400BadRequest, exception.Message);
        }

        context.Features.GetRequiredFeature<IHttpBodyControlFeature>().AllowSynchronousIO = true;
        var input = context.Request.Body;
        var imported = ImportCommand.Import(Database, name, DocumentSource.Read(input, transfer, "the upload"), upsert: false, batchSize: 0, input, CommandContext.Silent);
        return Results.Json(new { imported });
    }

    private static TransferFormat Format(string? format, string command)
    {
        try
        {
            return TransferFormats.Resolve(format, null, command);
        }
        catch (Arguments.UsageException exception)
        {
            throw new StudioException(StatusCodes.Status400BadRequest, exception.Message);
        }
    }
}
