using Microsoft.AspNetCore.Diagnostics.HealthChecks;

namespace BLite.Samples.WebApi;

/// <summary>A minimal API over one BLite collection, with its health check.</summary>
public static class TodoApi
{
    /// <summary>Builds the application; the test host calls this with its own URL and database path.</summary>
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        // Options come from the "BLite" section (appsettings.json, environment BLite__Path, --BLite:Path=...).
        builder.Services.AddBLite<TodoContext>(builder.Configuration.GetSection("BLite"));
        builder.Services.AddHealthChecks().AddBLite<TodoContext>();

        var app = builder.Build();
        app.MapHealthChecks("/health", new HealthCheckOptions { ResponseWriter = HealthResponse.WriteAsync });

        var todos = app.MapGroup("/todos");
        todos.MapGet("/", (TodoContext db, bool? done) =>
            done is { } wanted ? db.Todos.Find(t => t.Done == wanted).ToList() : db.Todos.FindAll().ToList());
        todos.MapGet("/{id:int}", async (TodoContext db, int id, CancellationToken ct) =>
            await db.Todos.FindByIdAsync(id, ct) is { } todo ? Results.Ok(todo) : Results.NotFound());
        todos.MapPost("/", async (TodoContext db, NewTodo input, CancellationToken ct) =>
        {
            if (string.IsNullOrWhiteSpace(input.Title))
            {
                return Results.ValidationProblem(new Dictionary<string, string[]> { ["title"] = ["A todo needs a title."] });
            }

            var id = await db.Todos.InsertAsync(new Todo { Title = input.Title }, ct);
            return Results.Created($"/todos/{id}", await db.Todos.FindByIdAsync(id, ct));
        });
        todos.MapPut("/{id:int}/done", async (TodoContext db, int id, CancellationToken ct) =>
        {
            // One transaction: the read and the write see and change the same version.
            await using var tx = await db.BeginTransactionAsync(ct);
            if (await db.Todos.FindByIdAsync(id, ct) is not { } todo)
            {
                return Results.NotFound();
            }

            todo.Done = true;
            await db.Todos.UpdateAsync(todo, ct);
            await tx.CommitAsync(ct);
            return Results.Ok(todo);
        });
        todos.MapDelete("/{id:int}", async (TodoContext db, int id, CancellationToken ct) =>
            await db.Todos.DeleteAsync(id, ct) ? Results.NoContent() : Results.NotFound());
        return app;
    }
}

/// <summary>The body of <c>POST /todos</c>.</summary>
public sealed record NewTodo(string Title);
