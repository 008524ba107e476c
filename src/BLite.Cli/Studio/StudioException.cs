namespace BLite.Cli.Studio;

/// <summary>A request the studio refuses, with the HTTP status and the message shown to the user.</summary>
internal sealed class StudioException(int statusCode, string message) : Exception(message)
{
    public int StatusCode { get; } = statusCode;
}
