using BLite.Bson;
using BLite.Cli.Commands;
using BLite.Core;
using Microsoft.AspNetCore.Http;

namespace BLite.Cli.Studio;

/// <summary>
/// Turns a refused request into a JSON error the pages show beside the control that caused it:
/// bad input is 400, a unique-index violation 409, a missing document or collection 404. The
/// engine's own message is kept, as the CLI keeps it.
/// </summary>
internal static class StudioErrors
{
    public static async Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        int status;
        string message;
        try
        {
            await next(context).ConfigureAwait(false);
            return;
        }
        catch (StudioException exception)
        {
            (status, message) = (exception.StatusCode, exception.Message);
        }
        catch (BLiteUniqueConstraintException exception)
        {
            (status, message) = (StatusCodes.Status409Conflict, exception.Message);
        }
        catch (BLiteCorruptionException exception)
        {
            (status, message) = (StatusCodes.Status500InternalServerError, "damage found: " + exception.Message);
        }
        catch (Exception exception) when (exception is BLiteException or ArgumentException or FormatException or CommandException or InvalidOperationException)
        {
            (status, message) = (StatusCodes.Status400BadRequest, exception.Message);
        }

        if (context.Response.HasStarted)
        {
            throw new InvalidOperationException("the studio failed after it began its answer: " + message);
        }

        context.Response.Clear();
        await Results.Json(new StudioError(message), statusCode: status).ExecuteAsync(context).ConfigureAwait(false);
    }
}

internal sealed record StudioError(string Error);
