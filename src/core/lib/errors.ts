// Builds the document's Error body ({ error, message }) for every failure the server answers.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export interface ErrorBody {
  error: number
  message: string
}

export const errorBody = (statusCode: number, message: string): ErrorBody => ({ error: statusCode, message })
