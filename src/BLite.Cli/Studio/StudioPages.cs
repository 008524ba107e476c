using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace BLite.Cli.Studio;

/// <summary>Serves the pages embedded in the tool (Studio/wwwroot): nothing is read from disk and nothing is fetched from elsewhere.</summary>
internal static class StudioPages
{
    private static readonly Dictionary<string, string> ContentTypes = new(StringComparer.OrdinalIgnoreCase)
    {
        [".html"] = "text/html; charset=utf-8",
        [".js"] = "text/javascript; charset=utf-8",
        [".css"] = "text/css; charset=utf-8",
        [".svg"] = "image/svg+xml",
    };

    public static void Map(WebApplication app)
    {
        app.MapGet("/", (HttpContext context) => Serve(context, "index.html"));
        app.MapGet("/{file}", (HttpContext context, string file) => Serve(context, file));
    }

    private static async Task Serve(HttpContext context, string file)
    {
        var assembly = typeof(StudioPages).Assembly;
        await using var stream = assembly.GetManifestResourceStream("studio/" + file);
        if (stream is null || !ContentTypes.TryGetValue(Path.GetExtension(file), out var contentType))
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            return;
        }

        context.Response.ContentType = contentType;
        context.Response.ContentLength = stream.Length;
        await stream.CopyToAsync(context.Response.Body).ConfigureAwait(false);
    }
}
