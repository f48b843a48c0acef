from memory.rls import acting_user


class ActingUserMiddleware:
    """Set the RLS acting user for the whole request: the signed-in user, or nobody."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        user_id = user.pk if user is not None and user.is_authenticated else None
        with acting_user(user_id):
            return self.get_response(request)
